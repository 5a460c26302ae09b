/**
 * The streaming front door on generated exports: counts equal the generator's own counts, the
 * result does not depend on how the bytes are chunked, progress adds up, cancel stops it.
 */
import { describe, expect, it } from 'vitest';
import { parseAll, parseImport } from '../../../src/lib/core/import/parse-stream';
import type { ImportEvent, ParsedFile } from '../../../src/lib/core/import/parsed';
import { chatgptExport, seededRng } from '../../factories/import-generator';
import { concatBytes } from '../../../src/lib/core/vaultfile/bytes';

const bytesOf = (chunks: Iterable<Uint8Array>): Uint8Array => concatBytes([...chunks]);

function rechunk(bytes: Uint8Array, seed: number, max: number): ReadableStream<Uint8Array> {
  const rng = seededRng(seed);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = 1 + Math.floor(rng() * max);
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

const fingerprint = (f: ParsedFile) => JSON.stringify(f.conversations);

describe('streaming a generated ChatGPT export', () => {
  const generated = chatgptExport({ conversations: 60, targetBytes: 3_000_000, seed: 11, chunkBytes: 256 * 1024 });
  const bytes = bytesOf(generated.chunks);
  const counts = generated.counts;

  it('yields counts equal to what the generator made', async () => {
    const { summary } = await parseAll(rechunk(bytes, 1, 300_000), { name: 'gen.json' });
    expect(counts.conversations).toBe(60);
    expect(summary).toMatchObject({
      format: 'chatgpt',
      conversations: counts.conversations,
      messages: { visible: counts.visible, otherBranches: counts.otherBranches, hidden: counts.hidden },
      errors: [],
      skipped: [],
      bytesRead: bytes.length,
    });
    expect(counts.otherBranches).toBeGreaterThan(0);
  });

  it('gives the same result however the bytes are chunked (1 byte to 1 MiB, borders inside characters)', async () => {
    const reference = fingerprint(await parseAll(bytes));
    for (const [seed, max] of [
      [2, 7],
      [3, 4096],
      [4, 1 << 20],
    ] as const) {
      expect(fingerprint(await parseAll(rechunk(bytes.subarray(0, max === 7 ? 400_000 : bytes.length), seed, max)))).toBe(
        max === 7 ? fingerprint(await parseAll(bytes.subarray(0, 400_000))) : reference,
      );
    }
  });

  it('reads ensure_ascii (\\uXXXX) exports to the same text', async () => {
    const escaped = bytesOf(chatgptExport({ conversations: 60, targetBytes: 3_000_000, seed: 11, asciiEscape: true }).chunks);
    expect(escaped.every((b) => b < 0x80)).toBe(true);
    expect(fingerprint(await parseAll(escaped))).toBe(fingerprint(await parseAll(bytes)));
  });

  it('reports progress in bytes, monotonic, ending at the total', async () => {
    const events: ImportEvent[] = [];
    for await (const e of parseImport(rechunk(bytes, 5, 200_000), { totalBytes: bytes.length })) events.push(e);
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e.bytesRead] : []));
    expect(progress.length).toBeGreaterThan(5);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(bytes.length);
    expect(events.at(-1)!.type).toBe('done');
    expect(events.filter((e) => e.type === 'conversation').length).toBe(60);
  });

  it('yields conversations before the input ends (streaming, not collect-then-parse)', async () => {
    let delivered = 0;
    const source = (async function* () {
      for (let at = 0; at < bytes.length; at += 100_000) {
        delivered = at + 100_000;
        yield bytes.subarray(at, at + 100_000);
      }
    })();
    for await (const e of parseImport(source)) {
      if (e.type === 'conversation') {
        expect(delivered).toBeLessThan(bytes.length);
        break;
      }
    }
  });

  it('stops with import/cancelled when the signal aborts', async () => {
    const controller = new AbortController();
    let seen = 0;
    let done: ImportEvent | undefined;
    for await (const e of parseImport(rechunk(bytes, 6, 50_000), { signal: controller.signal })) {
      if (e.type === 'conversation' && ++seen === 3) controller.abort();
      if (e.type === 'done') done = e;
    }
    expect(done).toMatchObject({ summary: { errors: [{ code: 'import/cancelled' }] } });
    expect(seen).toBeLessThan(60);
  });

  it('refuses one conversation larger than the element limit', async () => {
    const { summary } = await parseAll(bytes, { limits: { maxElementChars: 10_000 } });
    expect(summary.errors.map((e) => e.code)).toEqual(['import/too-large']);
  });

  it('still streams a list that starts after a long run of whitespace', async () => {
    const padded = new Uint8Array(10_000 + bytes.length).fill(0x20);
    padded.set(bytes, 10_000);
    const { summary } = await parseAll(padded, { limits: { maxDocumentChars: 100_000 } });
    expect(summary).toMatchObject({ conversations: 60, errors: [] });
  });

  it('cancels the source stream when a file fails early', async () => {
    let cancelled = false;
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(pulls === 1 ? new TextEncoder().encode('[{"a":1} {') : new Uint8Array(1000).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { summary } = await parseAll(endless);
    expect(summary.errors.map((e) => e.code)).toEqual(['import/not-json']);
    expect(cancelled).toBe(true);
  });

  it('refuses a non-list document larger than the document limit', async () => {
    const big = new TextEncoder().encode(`User: ${'a'.repeat(20_000)}\nAssistant: b`);
    const { summary } = await parseAll(big, { limits: { maxDocumentChars: 10_000 } });
    expect(summary.errors.map((e) => e.code)).toEqual(['import/too-large']);
  });
});
