import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportMarkdown, type MarkdownExportReport } from '../../lib/core/markdown/sync';
import { loadMarkdownInput } from '../../lib/store/views/markdown-view';
import { nodeMarkdownFolder } from '../markdown-folder';
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
export --markdown <dir> --vault <in.engram> [--vault-passphrase-env VAR] [--json]

Writes the vault in <in.engram> to <out.engram> (re-encoded through the app's own store: plain or
encrypted, with or without vectors). <out.engram> is replaced atomically.
  --passphrase-env VAR        encrypt <out.engram> with the passphrase in environment variable VAR
  --encrypt                   encrypt, asking for the passphrase on the terminal
  --vault-passphrase-env VAR  the passphrase of an encrypted <in.engram> (default: the one above;
                              asked on a terminal when missing)
  --no-vectors                leave embedding vectors out (the importing app rebuilds them)
  --markdown DIR              instead: write the kept notes (decisions among them) as Markdown into
                              DIR, one file per note with YAML front matter, a folder per category,
                              a page per source conversation and an index. Run it again to update:
                              files you edited are reported and left as they are.

JSON (--json): { "out": path, "vaultId": string, "exportedAt": ms, "encrypted": bool, "vectors": bool,
  "bytes": n, "records": n, "counts": { "conversations": n, "messages": n, "notes": n, "chunks": n,
  "history": n, "imports": n, "settings": n, "tombstones": n, "vectors": n },
  "digest": canonical SHA-256 of the records in <out.engram> (equal files hold equal records) }
JSON with --markdown: { "dir": path, "written": [..], "updated": [..], "unchanged": [..], "edited": [..],
  "stale": [..] } (paths relative to DIR)
On failure: { "error": { "code", "message", "detail"? } } and exit code 1 (2 for usage errors).`;

export function describeMarkdown(dir: string, report: MarkdownExportReport): string {
  const lines = [
    `Markdown in ${dir}: ${report.written.length} written, ${report.updated.length} updated, ${report.unchanged.length} unchanged.`,
  ];
  if (report.edited.length > 0)
    lines.push(`Edited by you, left as they are (${report.edited.length}):`, ...report.edited.map((p) => `  ${p}`));
  if (report.stale.length > 0)
    lines.push(`No longer kept in the vault, left in place (${report.stale.length}):`, ...report.stale.map((p) => `  ${p}`));
  return lines.join('\n');
}

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
        markdown: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    if (values.markdown !== undefined) {
      if (positionals.length > 0) throw new UsageError('With --markdown DIR, give no output file.');
      if (!values.vault) throw new UsageError('Name the vault file to export with --vault <in.engram>.');
      const dir = resolve(values.markdown);
      const vaultPath = values.vault;
      if (
        !(await access(vaultPath).then(
          () => true,
          () => false,
        ))
      )
        throw new UsageError(`There is no vault file at ${vaultPath}.`);
      const report = await withPassphrasePrompt(passphraseFromEnv(values['vault-passphrase-env']), vaultPath, (passphrase) =>
        withVaultFile(vaultPath, passphrase, async (vault) => exportMarkdown(await loadMarkdownInput(vault), nodeMarkdownFolder(dir)), {
          write: false,
        }),
      );
      return { json: { dir, ...report }, text: describeMarkdown(dir, report) };
    }
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
