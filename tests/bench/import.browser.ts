import { workerPreparer } from '../../src/lib/store/prepare-worker-host';
import type { GeneratorOptions } from '../factories/import-generator';
import { generatedExport, timeImport, type ImportExportName } from './import-work';
import { heapMb } from './page-heap';

/** The importer as the import worker runs it: a large file's conversations prepared in a prepare worker. */
const preparer = () =>
  workerPreparer(() => new Worker(new URL('../../workers/prepare.worker.ts', import.meta.url), { type: 'module', name: 'prepare' }));

/** A generated export in Chromium: the file is a Blob read as a stream, as a dropped File is. */
async function importGenerated(name: ImportExportName | GeneratorOptions) {
  const { chunks, counts } = generatedExport(name);
  const blob = new Blob(chunks as BlobPart[], { type: 'application/json' });
  chunks.length = 0; // only the Blob holds the bytes now, as with a real File
  return timeImport(blob.stream(), blob.size, counts, () => performance.now(), heapMb, { preparer });
}

export const functions = {
  importChatgpt100mb: () => importGenerated('chatgpt_100mb'),
  /** A named export (`chatgpt_300mb`), or generator options (for exploring at other sizes). */
  importChatgpt: (name: unknown) => importGenerated(name as ImportExportName | GeneratorOptions),
};
