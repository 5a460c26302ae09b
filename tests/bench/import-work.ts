import { runImport, type ImportOptions } from '../../src/lib/store/importer';
import { openVault } from '../../src/lib/store/vault';
import { chatgptExport, HEAVY_ARCHIVE, type GeneratedCounts, type GeneratorOptions } from '../factories/import-generator';

export interface ImportTiming {
  bytes: number;
  seconds: number;
  conversations: number;
  messages: number;
  peakHeapMb: number | null;
  expected: GeneratedCounts;
}

/** ~100 MB, ~2,000 conversations: the export size the import figures are named after. */
export const IMPORT_BENCH = { conversations: 2_000, targetBytes: 100_000_000, seed: 11 };

/** The generated exports the import figures are named after (`import.<key>.*`). */
export const IMPORT_EXPORTS = {
  chatgpt_100mb: IMPORT_BENCH,
  chatgpt_300mb: HEAVY_ARCHIVE,
} satisfies Record<string, GeneratorOptions>;
export type ImportExportName = keyof typeof IMPORT_EXPORTS;

/** A generated export as byte chunks plus the counts the generator made while generating. */
export function generatedExport(name: ImportExportName | GeneratorOptions = 'chatgpt_100mb'): {
  chunks: Uint8Array[];
  counts: GeneratedCounts;
} {
  const { chunks, counts } = chatgptExport(typeof name === 'string' ? IMPORT_EXPORTS[name] : name);
  const list = [...chunks];
  return { chunks: list, counts };
}

/**
 * Imports the export through the product's importer (parse → safety → staged batches → publish)
 * into a fresh vault and times it. `heap` samples the JS heap (MB) while it runs.
 */
export async function timeImport(
  source: ReadableStream<Uint8Array> | Iterable<Uint8Array>,
  bytes: number,
  expected: GeneratedCounts,
  now: () => number,
  heap?: () => number | null,
  options: ImportOptions = {},
): Promise<ImportTiming> {
  const vault = await openVault(`bench-import-${Math.random().toString(36).slice(2)}`);
  let peak = heap?.() ?? null;
  const sampler = heap ? setInterval(() => (peak = Math.max(peak ?? 0, heap() ?? 0)), 100) : null;
  try {
    const t0 = now();
    const report = await runImport(vault, [{ name: 'bench-export.json', size: bytes, bytes: source }], options);
    const seconds = (now() - t0) / 1000;
    const file = report.files[0]!;
    if (file.errors.length) throw new Error(`bench import failed: ${file.errors[0]!.message}`);
    if (file.conversations.stored !== expected.conversations || file.messages.stored !== expected.visible) {
      throw new Error(
        `bench import stored ${file.conversations.stored}/${file.messages.stored}, expected ${expected.conversations}/${expected.visible}`,
      );
    }
    return { bytes, seconds, conversations: file.conversations.stored, messages: file.messages.stored, peakHeapMb: peak, expected };
  } finally {
    if (sampler) clearInterval(sampler);
    vault.db.close();
    await vault.db.delete();
  }
}
