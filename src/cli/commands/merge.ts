import { parseArgs } from 'node:util';
import type { ImportReport, VaultFileInfo } from '../../lib/core/api/vault-file';
import type { Vault } from '../../lib/store/vault';
import { mergeVaultFile } from '../../lib/store/vaultfile-merge';
import { UsageError, type Command } from '../command';
import { describeWritten, outputPassphrase } from './export';
import {
  closeScratchVault,
  fileStream,
  loadVaultFile,
  openScratchVault,
  passphraseFromEnv,
  withPassphrasePrompt,
  withVaultFile,
  writeVaultFile,
  type WrittenVaultFile,
} from './vault-file';

const USAGE = `merge <a.engram> <b.engram> [more.engram ...] --out <c.engram> [options]
       merge <a.engram> [more.engram ...] --vault <v.engram> [options]

Merges vault files by the app's own rules (the later version of each record wins, deletions win
over older versions, displaced note versions are kept in the history): the same result whatever
the order, and merging a file twice adds nothing. With --out, the inputs are merged into a new
file; with --vault, they are merged into <v.engram>, which is replaced atomically.
  --passphrase-env VAR     encrypt the result (and open an encrypted --vault) with the passphrase in VAR
  --encrypt                encrypt the result, asking for the passphrase on the terminal
  --in-passphrase-env VAR  the passphrase of encrypted inputs (default: the one above; asked on a
                           terminal when missing)
  --no-vectors             leave embedding vectors out of the result

JSON (--json): { "inputs": [ { "path": path, "vaultId", "exportedAt", "encrypted", "records": n,
  "changes": { "added", "updated", "deleted", "tombstones", "history" } | null (the first input of
  --out, which the others merge into) } ], "written": { "path", "vaultId", "exportedAt", "encrypted",
  "vectors", "bytes", "records", "counts": { per table }, "digest" } }
On failure: { "error": { "code", "message", "detail"? } } and exit code 1 (2 for usage errors).`;

interface InputReport {
  path: string;
  vaultId: string;
  exportedAt: number;
  encrypted: boolean;
  records: number;
  changes: Extract<ImportReport, { mode: 'merge' }>['changes'] | null;
}

function inputReport(path: string, file: VaultFileInfo, changes: InputReport['changes']): InputReport {
  const records = Object.values(file.counts).reduce((sum, n) => sum + (n ?? 0), 0);
  return { path, vaultId: file.vaultId, exportedAt: file.exportedAt, encrypted: file.encrypted, records, changes };
}

async function mergeInputs(vault: Vault, paths: readonly string[], passphrase: string | null): Promise<InputReport[]> {
  const reports: InputReport[] = [];
  for (const path of paths) {
    const report = await withPassphrasePrompt(passphrase, path, (p) =>
      mergeVaultFile(vault, fileStream(path), { passphrase: p ?? undefined }),
    );
    reports.push(inputReport(path, report.file, report.changes));
  }
  return reports;
}

export const mergeCommand: Command = {
  name: 'merge',
  summary: 'Merge vault files into a new file, or into a vault file.',
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        vault: { type: 'string' },
        'passphrase-env': { type: 'string' },
        'in-passphrase-env': { type: 'string' },
        encrypt: { type: 'boolean', default: false },
        'no-vectors': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
    if ((values.out === undefined) === (values.vault === undefined))
      throw new UsageError('Give either --out <c.engram> or --vault <v.engram>.');
    if (positionals.length < (values.out ? 2 : 1))
      throw new UsageError(values.out ? 'Give at least two files to merge.' : 'Give a file to merge.');
    const outPassphrase = await outputPassphrase(values['passphrase-env'], values.encrypt);
    const inPassphrase = passphraseFromEnv(values['in-passphrase-env']) ?? outPassphrase;
    const options = { vectors: !values['no-vectors'] };
    let inputs: InputReport[];
    let written: WrittenVaultFile;
    if (values.vault) {
      // Into the vault file: loaded, merged, and written back atomically only when every input merged.
      const target = values.vault;
      [inputs, written] = await withPassphrasePrompt(outPassphrase, target, (passphrase) =>
        withVaultFile(
          target,
          passphrase,
          async (vault) => {
            const reports = await mergeInputs(vault, positionals, inPassphrase ?? passphrase);
            return [reports, await writeVaultFile(vault, target, passphrase, options)] as const;
          },
          { write: false },
        ),
      );
    } else {
      const vault = await openScratchVault();
      try {
        const [first, ...rest] = positionals as [string, ...string[]];
        const loaded = await withPassphrasePrompt(inPassphrase, first, (p) => loadVaultFile(vault, first, p));
        inputs = [inputReport(first, loaded.file, null), ...(await mergeInputs(vault, rest, inPassphrase))];
        written = await writeVaultFile(vault, values.out!, outPassphrase, options);
      } finally {
        await closeScratchVault(vault);
      }
    }
    const lines = inputs.map((i) =>
      i.changes
        ? `${i.path}: ${i.changes.added} added, ${i.changes.updated} updated, ${i.changes.deleted} deleted, ${i.changes.history} history entries added`
        : `${i.path}: ${i.records} records (the base)`,
    );
    return { json: { inputs, written }, text: [...lines, describeWritten(written)].join('\n') };
  },
};
