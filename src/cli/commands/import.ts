import { createReadStream } from 'node:fs';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FileReport, ImportReport } from '../../lib/core/import/report';
import { TABLE_NAMES } from '../../lib/store/schema';
import { runImport, type ImportInput } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import { UsageError, type Command } from '../command';

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

async function inputsFor(paths: readonly string[]): Promise<ImportInput[]> {
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
  for (const table of TABLE_NAMES) {
    if (table === 'jobs') continue;
    await vault.db.table(table).each((row: unknown) => {
      lines.push(JSON.stringify({ table, row }, (_key, value: unknown) => (value instanceof Float32Array ? Array.from(value) : value)));
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
  usage: 'import <file|dir...> [--json] [--dump FILE]',
  async run(argv) {
    const dumpAt = argv.indexOf('--dump');
    const dump = dumpAt >= 0 ? argv[dumpAt + 1] : undefined;
    if (dumpAt >= 0 && !dump) throw new UsageError('--dump needs a file to write.');
    const paths = argv.filter((a, i) => !a.startsWith('--') && (dumpAt < 0 || i !== dumpAt + 1));
    if (paths.length === 0) throw new UsageError('Name at least one export file or folder.');
    const files = await expandPaths(paths);
    const vault = await openVault(`cli-import-${process.pid}-${Date.now()}`);
    try {
      const report = await runImport(vault, await inputsFor(files));
      const dumped = dump ? await dumpVault(vault, dump) : null;
      const text = reportText(report) + (dump ? `\nWrote ${dumped} rows to ${dump}.` : '');
      return { json: reportJson(report), text, exitCode: report.status === 'done' ? 0 : 1 };
    } finally {
      vault.db.close();
    }
  },
};
