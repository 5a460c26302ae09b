import { bufferSource } from '../../core/vaultfile/bytes';

/**
 * Where an export's bytes go in the worker. A Blob built in steps: every few MB the parts so far
 * are folded into one Blob, which the browser keeps in its blob store (spilling to disk), so the
 * worker's heap holds at most one step of the file. The Blob crosses to the page by structured
 * clone (a reference, not a copy).
 */
const FOLD_BYTES = 8 * 1024 * 1024;

export async function streamToBlob(
  stream: ReadableStream<Uint8Array>,
  type = 'application/octet-stream',
): Promise<{ blob: Blob; bytes: number }> {
  const reader = stream.getReader();
  let folded = new Blob([], { type });
  let parts: BlobPart[] = [];
  let pending = 0;
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(bufferSource(value));
      pending += value.length;
      bytes += value.length;
      if (pending >= FOLD_BYTES) {
        folded = new Blob([folded, ...parts], { type });
        parts = [];
        pending = 0;
      }
    }
  } finally {
    reader.releaseLock();
  }
  return { blob: new Blob([folded, ...parts], { type }), bytes };
}

/** A stream that counts the bytes passing through (for files written straight to a folder). */
export function countingStream(stream: ReadableStream<Uint8Array>): { stream: ReadableStream<Uint8Array>; bytes: () => number } {
  let bytes = 0;
  const counted = stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.length;
        controller.enqueue(chunk);
      },
    }),
  );
  return { stream: counted, bytes: () => bytes };
}

/** `engram-vault-2026-05-01.engram` */
export function exportFileName(exportedAt: number): string {
  return `engram-vault-${new Date(exportedAt).toISOString().slice(0, 10)}.engram`;
}
