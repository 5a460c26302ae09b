import { parseArgs } from 'node:util';
import { assessPassphrase } from '../../lib/core/passphrase/strength';
import { UsageError, type Command } from '../command';
import {
  passphraseFromEnv,
  promptPassphrase,
  withPassphrasePrompt,
  withVaultFile,
  writeVaultFile,
  type WrittenVaultFile,
} from './vault-file';

const USAGE = `export <out.engram> --vault <in.engram> [--passphrase-env VAR | --encrypt] [--vault-passphrase-env VAR] [--no-vectors] [--json]

Writes the vault in <in.engram> to <out.engram> (re-encoded through the app's own store: plain or
encrypted, with or without vectors). <out.engram> is replaced atomically.
  --passphrase-env VAR        encrypt <out.engram> with the passphrase in environment variable VAR
  --encrypt                   encrypt, asking for the passphrase on the terminal
  --vault-passphrase-env VAR  the passphrase of an encrypted <in.engram> (default: the one above;
                              asked on a terminal when missing)
  --no-vectors                leave embedding vectors out (the importing app rebuilds them)

JSON (--json): { "out": path, "vaultId": string, "exportedAt": ms, "encrypted": bool, "vectors": bool,
  "bytes": n, "records": n, "counts": { "conversations": n, "messages": n, "notes": n, "chunks": n,
  "history": n, "imports": n, "settings": n, "tombstones": n, "vectors": n },
  "digest": canonical SHA-256 of the records in <out.engram> (equal files hold equal records) }
On failure: { "error": { "code", "message", "detail"? } } and exit code 1 (2 for usage errors).`;

/** The passphrase a written file is encrypted with: refused when it is too easy to guess. */
export async function outputPassphrase(env: string | undefined, encrypt: boolean): Promise<string | null> {
  const fromEnv = passphraseFromEnv(env);
  if (fromEnv !== null) return requireStrong(fromEnv);
  if (!encrypt) return null;
  const first = await requireStrong(await promptPassphrase('Passphrase for the new file: '));
  if (first !== (await promptPassphrase('Type it again: '))) throw new UsageError('The two passphrases differ.');
  return first;
}

async function requireStrong(passphrase: string): Promise<string> {
  const hint = await assessPassphrase(passphrase);
  if (!hint.acceptable) throw new UsageError(`That passphrase is refused. ${hint.message}`);
  return passphrase;
}

export function describeWritten(file: WrittenVaultFile): string {
  const c = file.counts;
  return [
    `Wrote ${file.path} (${file.bytes.toLocaleString('en')} bytes, ${file.encrypted ? 'encrypted' : 'plain'}, ${file.vectors ? 'with' : 'without'} vectors).`,
    `${c.conversations} conversations, ${c.messages} messages, ${c.notes} notes, ${c.chunks} chunks, ${c.history} history entries, ${c.tombstones} deletions.`,
    `Digest ${file.digest}`,
  ].join('\n');
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write a vault file again: encrypt, decrypt, or drop vectors.',
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        vault: { type: 'string' },
        'passphrase-env': { type: 'string' },
        'vault-passphrase-env': { type: 'string' },
        encrypt: { type: 'boolean', default: false },
        'no-vectors': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    const [out, ...extra] = positionals;
    if (!out || extra.length > 0) throw new UsageError('Give exactly one output file.');
    if (!values.vault) throw new UsageError('Name the vault file to export with --vault <in.engram>.');
    const outPassphrase = await outputPassphrase(values['passphrase-env'], values.encrypt);
    const inPassphrase = passphraseFromEnv(values['vault-passphrase-env']) ?? outPassphrase;
    const vaultPath = values.vault;
    const written = await withPassphrasePrompt(inPassphrase, vaultPath, (passphrase) =>
      withVaultFile(vaultPath, passphrase, (vault) => writeVaultFile(vault, out, outPassphrase, { vectors: !values['no-vectors'] }), {
        write: false,
      }),
    );
    const { path, ...rest } = written;
    return { json: { out: path, ...rest }, text: describeWritten(written) };
  },
};
