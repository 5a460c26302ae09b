import { createReadStream, readFileSync } from 'node:fs';
import { access, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { RestoreReport } from '../../lib/core/api/vault-file';
import { isVaultError } from '../../lib/core/errors';
import type { DeriveKeyFn, KdfChoice } from '../../lib/core/vaultfile/kdf';
import { vaultDigest } from '../../lib/core/vaultfile/digest';
import { openVault, type Vault } from '../../lib/store/vault';
import { exportVault } from '../../lib/store/vaultfile-export';
import { restoreVault } from '../../lib/store/vaultfile-restore';
import { exportableState } from '../../lib/store/vaultfile-status';
import { UsageError } from '../command';

/**
 * Vault files from the command line: a `.engram` file is loaded into a fresh vault (Dexie over
 * fake-indexeddb, see node-env.ts) through the same store code the browser's worker runs, worked
 * on, and written back atomically. Passphrases come from an environment variable or a prompt on a
 * terminal, never from the command line (where other users and shell history would see them).
 */

export const APP_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

let scratch = 0;

/** An empty vault of its own (one fake-indexeddb database), for one command. */
export function openScratchVault(): Promise<Vault> {
  scratch += 1;
  return openVault(`engram-cli-${process.pid}-${scratch}-${Date.now()}`);
}

export async function closeScratchVault(vault: Vault): Promise<void> {
  vault.db.close();
  await vault.db.delete();
}

export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export function fileStream(path: string): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
}

/** Writes a stream to `path` through a temporary file in the same folder, then renames it over. */
export async function writeFileAtomic(path: string, stream: ReadableStream<Uint8Array>): Promise<number> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(temp, 'w');
  let bytes = 0;
  try {
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await handle.write(value);
      bytes += value.length;
    }
    await handle.sync();
    await handle.close();
    await rename(temp, path);
    return bytes;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

export interface VaultFileOptions {
  /** Write the vault back to the file after `fn` (default true). */
  write?: boolean;
  /** Keep vectors in the written file (default true). */
  vectors?: boolean;
  deriveKey?: DeriveKeyFn;
  kdf?: KdfChoice;
}

/** Restores a file into `vault` (same path as the browser: stage, verify to the end, commit). */
export async function loadVaultFile(
  vault: Vault,
  path: string,
  passphrase: string | null,
  deriveKey?: DeriveKeyFn,
): Promise<RestoreReport> {
  return restoreVault(vault, fileStream(path), { passphrase: passphrase ?? undefined, deriveKey });
}

export interface WrittenVaultFile {
  path: string;
  vaultId: string;
  exportedAt: number;
  encrypted: boolean;
  vectors: boolean;
  bytes: number;
  records: number;
  counts: Record<string, number>;
  /** Canonical digest (core `vaultDigest`) of the records the file holds. */
  digest: string;
}

/** Exports `vault` to `path` atomically (encrypted when a passphrase is given). */
export async function writeVaultFile(
  vault: Vault,
  path: string,
  passphrase: string | null,
  options: VaultFileOptions = {},
): Promise<WrittenVaultFile> {
  const vectors = options.vectors ?? true;
  const encryption = passphrase === null ? undefined : { passphrase, kdf: options.kdf, deriveKey: options.deriveKey };
  const exported = await exportVault(vault, { vectors, appVersion: APP_VERSION, encryption });
  const bytes = await writeFileAtomic(path, exported.stream);
  await exported.recordDone();
  const state = await exportableState(vault);
  if (!vectors) state.vectors = [];
  return {
    path,
    vaultId: exported.meta.vaultId,
    exportedAt: exported.meta.exportedAt,
    encrypted: exported.encrypted,
    vectors,
    bytes,
    records: exported.records,
    counts: exported.counts,
    digest: await vaultDigest(state),
  };
}

/**
 * Loads the vault file at `path` (an empty vault when `path` is null or the file does not exist)
 * into a fresh vault, runs `fn(vault)`, and writes the vault back to `path` atomically (temporary
 * file, then rename), encrypted with `passphrase` when one is given. The import and recall commands
 * use it for `--vault FILE`. The file is only replaced when `fn` succeeds.
 */
export async function withVaultFile<T>(
  path: string | null,
  passphrase: string | null,
  fn: (vault: Vault) => Promise<T>,
  options: VaultFileOptions = {},
): Promise<T> {
  const vault = await openScratchVault();
  try {
    if (path !== null && (await exists(path))) await loadVaultFile(vault, path, passphrase, options.deriveKey);
    const result = await fn(vault);
    if (path !== null && options.write !== false) await writeVaultFile(vault, path, passphrase, options);
    return result;
  } finally {
    await closeScratchVault(vault);
  }
}

/** The passphrase in environment variable `name`; a usage error when it is named but empty. */
export function passphraseFromEnv(name: string | undefined): string | null {
  if (name === undefined) return null;
  const value = process.env[name];
  if (!value) throw new UsageError(`The environment variable ${name} (named by a --*passphrase-env option) is not set or empty.`);
  return value;
}

/** Asks for a passphrase on the terminal without echoing it. */
export async function promptPassphrase(question: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new UsageError('A passphrase is needed: name an environment variable that holds it (--passphrase-env VAR).');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (text: string) => void; output: NodeJS.WritableStream };
  muted._writeToOutput = (text: string) => {
    if (text.startsWith(question)) muted.output.write(text);
  };
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    process.stderr.write('\n');
    rl.close();
  }
}

/** Runs `open(passphrase)`; for an encrypted file without a passphrase, asks on a terminal and retries. */
export async function withPassphrasePrompt<T>(
  passphrase: string | null,
  path: string,
  open: (passphrase: string | null) => Promise<T>,
): Promise<T> {
  try {
    return await open(passphrase);
  } catch (error) {
    if (passphrase !== null || !isVaultError(error) || error.code !== 'vault/passphrase-required' || !process.stdin.isTTY) throw error;
    return open(await promptPassphrase(`Passphrase for ${path}: `));
  }
}

/** Whether a vault file is encrypted (its one plaintext line says so). */
export async function isEncryptedFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    const first = JSON.parse(end === -1 ? text : text.slice(0, end)) as Record<string, unknown>;
    return typeof first === 'object' && first !== null && 'encryption' in first;
  } catch {
    // Not a vault file's first line: loading it says what is wrong.
    return false;
  } finally {
    await handle.close();
  }
}
