import { createReadStream } from 'node:fs';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FileReport, ImportReport } from '../../lib/core/import/report';
import { TABLE_NAMES } from '../../lib/store/schema';
import { queueIndexing } from '../../lib/store/index-queue';
import { runImport, type ImportInput } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import { UsageError, type Command } from '../command';
import { passphraseFromEnv, withVaultFile } from './vault-file';
import { allMessages } from '../../lib/store/messages-store';

/** `--name value` options pulled out of argv; `missing` names an option given without a value. */
export function optionValues(argv: readonly string[], names: readonly string[]) {
  const values: Record<string, string> = {};
  const rest: string[] = [];
  let missing: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!names.includes(arg)) {
      rest.push(arg);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) missing ??= arg;
    else values[arg] = value;
    i++;
  }
  return { values, rest, missing };
}

async function withFreshVault<T>(fn: (vault: Vault) => Promise<T>): Promise<T> {
  const vault = await openVault(`cli-import-${process.pid}-${Date.now()}`);
  try {
    return await fn(vault);
  } finally {
    vault.db.close();
  }
}

/** Files named on the command line, with folders expanded (sorted, so runs are repeatable). */
export async function expandPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info) throw new UsageError(`${path} does not exist.`);
    if (info.isDirectory()) {
      const entries = (await readdir(path, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(path, e.name));
      out.push(...entries.sort());
    } else out.push(path);
  }
  return out;
}

export async function inputsFor(paths: readonly string[]): Promise<ImportInput[]> {
  return Promise.all(
    paths.map(async (path) => ({
      name: path,
      size: (await stat(path)).size,
      // Streamed in 1 MiB pieces: a 500 MB export is never one buffer.
      bytes: Readable.toWeb(createReadStream(path, { highWaterMark: 1024 * 1024 })) as ReadableStream<Uint8Array>,
    })),
  );
}

/** Writes every stored row as JSON lines `{ "table": ..., "row": ... }` (vectors as plain arrays). */
export async function dumpVault(vault: Vault, path: string): Promise<number> {
  const lines: string[] = [];
  const line = (table: string, row: unknown) =>
    JSON.stringify({ table, row }, (_key, value: unknown) => (value instanceof Float32Array ? Array.from(value) : value));
  for (const table of TABLE_NAMES) {
    // Messages are written one line each, wherever they are stored (rows or blocks).
    if (table === 'jobs' || table === 'messageBlocks') continue;
    if (table === 'messages') {
      for (const message of await allMessages(vault.db)) lines.push(line(table, message));
      continue;
    }
    await vault.db.table(table).each((row: unknown) => {
      lines.push(line(table, row));
    });
  }
  await writeFile(path, lines.length ? `${lines.join('\n')}\n` : '');
  return lines.length;
}

/** The JSON shape of the issue: per-file counts and errors, and totals summing the files. */
export function reportJson(report: ImportReport) {
  const file = (f: FileReport) => ({
    path: f.path,
    format: f.format,
    conversations: f.conversations,
    messages: f.messages,
    redactions: f.redactions,
    flags: f.flags,
    errors: f.errors,
    resources: f.resources,
    skipped: f.skipped,
    status: f.status,
  });
  return { files: report.files.map(file), totals: report.totals, status: report.status };
}

function reportText(report: ImportReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    lines.push(`${f.path} (${f.format ?? 'unrecognised'}): ${f.status}`);
    lines.push(
      `  conversations: ${f.conversations.found} found, ${f.conversations.stored} stored, ${f.conversations.existing} already present, ${f.conversations.skipped} skipped`,
    );
    lines.push(
      `  messages: ${f.messages.found} found, ${f.messages.stored} stored, ${f.messages.existing} already present; ${f.messages.otherBranches} on other branches, ${f.messages.hidden} hidden`,
    );
    if (f.resources.found) lines.push(`  documents: ${f.resources.found} found, ${f.resources.stored} stored`);
    if (f.redactions || f.flags) lines.push(`  safety: ${f.redactions} secrets redacted, ${f.flags} lines flagged`);
    for (const s of f.skipped) lines.push(`  skipped ${s.what}: ${s.reason}`);
    for (const e of f.errors) lines.push(`  error (${e.code}): ${e.message}`);
  }
  const t = report.totals;
  lines.push(`Total: ${t.conversations.stored} conversations and ${t.messages.stored} messages stored (${t.errors} errors).`);
  return lines.join('\n');
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Import chat exports (files or folders) into a fresh in-memory vault and print the report.',
  usage:
    'import <file|dir...> [--json] [--dump FILE] [--vault FILE.engram [--passphrase-env VAR]]\n' +
    '  --vault: import into that vault file (created when missing, rewritten atomically), not a fresh in-memory vault',
  async run(argv) {
    const options = optionValues(argv, ['--dump', '--vault', '--passphrase-env']);
    if (options.missing) throw new UsageError(`${options.missing} needs a value.`);
    const paths = options.rest.filter((a) => !a.startsWith('--'));
    if (paths.length === 0) throw new UsageError('Name at least one export file or folder.');
    const files = await expandPaths(paths);
    const dump = options.values['--dump'];
    const work = async (vault: Vault) => {
      const report = await runImport(vault, await inputsFor(files), { onPublished: queueIndexing(vault) });
      const dumped = dump ? await dumpVault(vault, dump) : null;
      return { report, dumped };
    };
    const vaultPath = options.values['--vault'];
    const { report, dumped } = vaultPath
      ? await withVaultFile(vaultPath, passphraseFromEnv(options.values['--passphrase-env']), work)
      : await withFreshVault(work);
    const text = reportText(report) + (dump ? `\nWrote ${dumped} rows to ${dump}.` : '') + (vaultPath ? `\nVault file: ${vaultPath}` : '');
    return { json: reportJson(report), text, exitCode: report.status === 'done' ? 0 : 1 };
  },
};
