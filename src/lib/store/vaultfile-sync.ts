import { createSha256 } from '../core/vaultfile/sha256';

/**
 * The sync folder decides what to merge by the file's content digest, never by clocks: a file is
 * merged whenever its SHA-256 differs from the last one this device read or wrote there (merge is
 * idempotent, so merging an unchanged vault again is harmless). A device whose clock is behind
 * still gets its file merged; comparing `exportedAt` skipped it forever.
 */

/** SHA-256 (hex) of a file's bytes, streamed. */
export async function blobDigest(blob: Blob): Promise<string> {
  const hasher = await createSha256();
  const reader = (blob.stream() as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hasher.update(value);
  }
  return hasher.digestHex();
}

/** Passes a stream through while hashing it; `digest()` once it has been read to the end. */
export async function digestingStream(
  stream: ReadableStream<Uint8Array>,
): Promise<{ stream: ReadableStream<Uint8Array>; digest: () => string }> {
  const hasher = await createSha256();
  let digest: string | null = null;
  const hashed = stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hasher.update(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        digest = hasher.digestHex();
      },
    }),
  );
  return {
    stream: hashed,
    digest: () => {
      if (digest === null) throw new Error('digestingStream: the stream was not read to its end');
      return digest;
    },
  };
}
