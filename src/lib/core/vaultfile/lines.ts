import { concatBytes } from './bytes';

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines without decoding it: UTF-8 never uses 0x0A inside a multi-byte
 * character, so a 0x0A byte is always a line end. Lines are handed out as bytes *with* their
 * terminating newline, so checksums cover exactly the bytes in the file. A line longer than
 * `maxLineBytes` is refused (a damaged file without newlines must not grow memory without bound).
 */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingLength = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Complete lines found in this chunk (each ending in "\n"). */
  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = [];
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) break;
      const piece = chunk.subarray(start, end + 1);
      if (this.pending.length > 0) {
        this.pending.push(piece);
        lines.push(concatBytes(this.pending));
        this.pending = [];
        this.pendingLength = 0;
      } else {
        lines.push(piece);
      }
      start = end + 1;
    }
    if (start < chunk.length) {
      // Copy: the producer may reuse its buffer after we return.
      const rest = chunk.slice(start);
      this.pending.push(rest);
      this.pendingLength += rest.length;
    }
    for (const line of lines) if (line.length > this.maxLineBytes) throw new LineTooLong(this.maxLineBytes);
    if (this.pendingLength > this.maxLineBytes) throw new LineTooLong(this.maxLineBytes);
    return lines;
  }

  /** Bytes after the last newline (a truncated last line), if any. */
  rest(): Uint8Array | null {
    return this.pendingLength > 0 ? concatBytes(this.pending) : null;
  }
}

export class LineTooLong extends Error {
  constructor(readonly limit: number) {
    super(`a line is longer than ${limit} bytes`);
  }
}

/** The chunks of a ReadableStream as an async iterable; cancels the stream when left early. */
export async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      if (value.length > 0) yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Reads up to and including the first newline. Returns that line (with "\n"; null when the stream
 * ends first, with whatever bytes there were) and an iterable of every byte after it.
 */
export async function takeFirstLine(
  source: AsyncIterator<Uint8Array>,
  maxLineBytes: number,
): Promise<{ line: Uint8Array | null; partial: Uint8Array | null; rest: AsyncIterable<Uint8Array> }> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await source.next();
    if (done) {
      return { line: null, partial: length > 0 ? concatBytes(parts) : null, rest: emptyIterable() };
    }
    const end = value.indexOf(NEWLINE);
    if (end === -1) {
      parts.push(value.slice());
      length += value.length;
      if (length > maxLineBytes) throw new LineTooLong(maxLineBytes);
      continue;
    }
    parts.push(value.subarray(0, end + 1));
    const line = concatBytes(parts);
    if (line.length > maxLineBytes) throw new LineTooLong(maxLineBytes);
    const leftover = value.subarray(end + 1);
    return { line, partial: null, rest: prepend(leftover, source) };
  }
}

async function* prepend(first: Uint8Array, source: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    if (first.length > 0) yield first;
    for (;;) {
      const { done, value } = await source.next();
      if (done) return;
      yield value;
    }
  } finally {
    // Left early (an error downstream): let the source cancel its stream.
    await source.return?.();
  }
}

async function* emptyIterable(): AsyncGenerator<Uint8Array> {}
