import { ByteQueue } from './bytes';
import { decryptChunk, encryptChunk, MAX_CHUNKS, TAG_BYTES, wrongPassphrase, type ChunkCipher } from './crypto';

/**
 * The chunk loop of crypto.ts's construction, over async iterables of bytes.
 *
 * Chunks have no length prefix: every chunk but the last seals exactly `chunkSize` plaintext bytes
 * (`chunkSize + 16` on disk), so the reader cuts the body at fixed offsets. Which chunk is last is
 * known only at the end of input, so both sides hold one chunk back: a full chunk is sealed (or
 * opened) as non-final only once at least one more byte follows it. The final flag in the
 * associated data then proves the file was not cut short.
 */
export async function* encryptChunks(plain: AsyncIterable<Uint8Array>, cipher: ChunkCipher): AsyncGenerator<Uint8Array> {
  const queue = new ByteQueue();
  let index = 0;
  for await (const piece of plain) {
    queue.push(piece);
    while (queue.length > cipher.chunkSize) {
      if (index >= MAX_CHUNKS) throw new RangeError('vault file too large for one encryption key');
      yield await encryptChunk(cipher, index, false, queue.take(cipher.chunkSize));
      index++;
    }
  }
  yield await encryptChunk(cipher, index, true, queue.takeAll());
}

/**
 * Opens the chunks in order and yields each chunk's plaintext only after its tag verified. Any
 * failure (wrong key, changed byte, reordered, missing or extra chunk, truncation) is
 * `vault/wrong-passphrase`.
 */
export async function* decryptChunks(body: AsyncIterable<Uint8Array>, cipher: ChunkCipher): AsyncGenerator<Uint8Array> {
  const sealedSize = cipher.chunkSize + TAG_BYTES;
  const queue = new ByteQueue();
  let index = 0;
  for await (const piece of body) {
    queue.push(piece);
    while (queue.length > sealedSize) {
      if (index >= MAX_CHUNKS) wrongPassphrase('too many chunks');
      yield await decryptChunk(cipher, index, false, queue.take(sealedSize));
      index++;
    }
  }
  if (queue.length < TAG_BYTES) wrongPassphrase(index === 0 ? 'no encrypted data' : `truncated after chunk ${index - 1}`);
  const last = await decryptChunk(cipher, index, true, queue.takeAll());
  if (last.length > 0) yield last;
}
