import { fail, isVaultError, toVaultError, VaultFailure } from '../errors';
import { CURRENT_FORMAT_VERSION } from './format';
import { looksEncrypted, openEncryption, wrongPassphrase } from './crypto';
import { decryptChunks } from './encrypted-stream';
import { deriveKeyBytes, passphraseBytes, type DeriveKeyFn } from './kdf';
import { LineSplitter, LineTooLong, streamChunks, takeFirstLine } from './lines';
import { PlainVaultParser, type VaultReadEvent } from './plain-parser';
import { acquireSha256, releaseSha256 } from './sha256';

export type { VaultReadEvent } from './plain-parser';

export interface ReadVaultOptions {
  /** Needed for encrypted files; ignored for plain ones. */
  passphrase?: string;
  /** Where the key derivation runs (e.g. a worker); default in-thread `deriveKeyBytes`. */
  deriveKey?: DeriveKeyFn;
  /** Records per `records` event (default 1000). */
  batchSize?: number;
  /** Longest line accepted (default 64 MiB): a damaged file must not exhaust memory. */
  maxLineBytes?: number;
}

const DEFAULT_BATCH = 1000;
const DEFAULT_MAX_LINE = 64 * 1024 * 1024;
/** The first line is a manifest or an encryption header: small. */
const MAX_FIRST_LINE = 1024 * 1024;

/**
 * Reads a vault file as a sequence of events: `manifest`, then per section `records` batches and
 * `section-end`, then `end`. Checksums, counts and (when encrypted) every chunk's tag are verified
 * as the bytes go by; nothing is ever held whole.
 *
 * The commit rule: records are provisional until the `end` event. A section's checksum can only
 * be checked at its end line, the file's at the trailer, and an encrypted file's completeness at
 * its final chunk; so a damaged or tampered file can fail after records were yielded. An importer
 * stages what it receives (rows in state `staged`, or a scratch store) and commits only on `end`;
 * on an error it discards the staging. (Two-pass reading would not remove this: the file can change
 * between the passes.) A wrong passphrase, or a change to the header, fails before any record.
 *
 * Errors are thrown as VaultFailure: `vault/corrupt` (damaged or not a vault file, naming what and
 * where), `vault/newer-format`, `vault/passphrase-required`, `vault/wrong-passphrase` (wrong
 * passphrase or the encrypted file was changed), `vault/failed` (the source stream failed).
 */
export async function* readVault(
  stream: ReadableStream<Uint8Array>,
  options: ReadVaultOptions = {},
): AsyncGenerator<VaultReadEvent, void, undefined> {
  const chunks = streamChunks(stream);
  try {
    const first = await readFirstLine(chunks);
    const value = parseFirstLine(first.line);
    if (looksEncrypted(value)) {
      if (typeof value.version === 'number' && value.version > CURRENT_FORMAT_VERSION) {
        fail(
          'vault/newer-format',
          `This vault file was written by a newer version of Engram Vault (file format ${value.version}). Update the app to open it.`,
          {
            fileVersion: value.version,
            supportedVersion: CURRENT_FORMAT_VERSION,
          },
        );
      }
      if (options.passphrase === undefined)
        fail('vault/passphrase-required', 'This vault file is encrypted: enter its passphrase to open it.');
      const passphrase = passphraseBytes(options.passphrase) ?? wrongPassphrase('passphrase');
      const cipher = await openEncryption(first.line, value, passphrase, options.deriveKey ?? deriveKeyBytes);
      passphrase.fill(0);
      yield* parsePlain(decryptChunks(first.rest, cipher), true, options);
    } else {
      yield* parsePlain(prependLine(first.line, first.rest), false, options);
    }
  } catch (thrown) {
    if (isVaultError(thrown)) throw thrown instanceof VaultFailure ? thrown : new VaultFailure(thrown);
    throw new VaultFailure(toVaultError(thrown, 'vault/failed'));
  } finally {
    await chunks.return(undefined);
  }
}

async function readFirstLine(chunks: AsyncGenerator<Uint8Array>) {
  let first;
  try {
    first = await takeFirstLine(chunks, MAX_FIRST_LINE);
  } catch (thrown) {
    if (thrown instanceof LineTooLong)
      fail('vault/corrupt', 'This is not an Engram vault file: its first line is not a vault manifest.', { line: 1 });
    throw thrown;
  }
  if (!first.line) {
    fail('vault/corrupt', first.partial ? 'The file is truncated: it ends before the end of its first line.' : 'The file is empty.', {
      line: 1,
    });
  }
  return { line: first.line, rest: first.rest };
}

function parseFirstLine(line: Uint8Array): unknown {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(line.subarray(0, line.length - 1));
    return JSON.parse(text) as unknown;
  } catch {
    return fail('vault/corrupt', 'This is not an Engram vault file: its first line is not a vault manifest.', { line: 1 });
  }
}

async function* prependLine(line: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield line;
  yield* rest;
}

async function* parsePlain(
  source: AsyncIterable<Uint8Array>,
  encrypted: boolean,
  options: ReadVaultOptions,
): AsyncGenerator<VaultReadEvent> {
  const fileHash = await acquireSha256();
  const sectionHash = await acquireSha256();
  try {
    yield* parseLines(
      source,
      new PlainVaultParser(fileHash, sectionHash, { encrypted, batchSize: options.batchSize ?? DEFAULT_BATCH }),
      options,
    );
  } finally {
    releaseSha256(fileHash, sectionHash);
  }
}

async function* parseLines(
  source: AsyncIterable<Uint8Array>,
  parser: PlainVaultParser,
  options: ReadVaultOptions,
): AsyncGenerator<VaultReadEvent> {
  const splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE);
  let end: VaultReadEvent | null = null;
  for await (const chunk of source) {
    let lines: Uint8Array[];
    try {
      lines = splitter.push(chunk);
    } catch (thrown) {
      if (thrown instanceof LineTooLong) fail('vault/corrupt', `The file is damaged: a line is longer than ${thrown.limit} bytes.`);
      throw thrown;
    }
    const events: VaultReadEvent[] = [];
    for (const line of lines) parser.line(line, events);
    for (const event of events) {
      // `end` is held back until the input is exhausted: bytes after the trailer, or (encrypted)
      // a final chunk that does not verify, must still fail the read before the commit signal.
      if (event.kind === 'end') end = event;
      else yield event;
    }
  }
  parser.finish(splitter.rest());
  if (end) yield end;
}
