import { generatedExport, timeImport } from './import-work';

interface MemoryInfo {
  usedJSHeapSize: number;
}

function heapMb(): number | null {
  const memory = (performance as unknown as { memory?: MemoryInfo }).memory;
  return memory ? memory.usedJSHeapSize / 2 ** 20 : null;
}

/** The 100 MB ChatGPT import in Chromium: the file is a Blob read as a stream, as a dropped File is. */
export const functions = {
  importChatgpt100mb: async () => {
    const { chunks, counts } = generatedExport();
    const blob = new Blob(chunks as BlobPart[], { type: 'application/json' });
    chunks.length = 0; // only the Blob holds the bytes now, as with a real File
    return timeImport(blob.stream(), blob.size, counts, () => performance.now(), heapMb);
  },
};
