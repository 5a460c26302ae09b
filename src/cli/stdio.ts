import type { Writable } from 'node:stream';
import type { CliIo } from './command';

/** The CLI's output on real streams, and a way to wait until every byte written has left the process. */
export interface StreamIo extends CliIo {
  /** Resolves once every write so far has been handed to the operating system (or its reader went away). */
  drained(): Promise<void>;
}

/**
 * Writes `text` lines to two Node streams. A write to a pipe is asynchronous in Node: past the
 * pipe's 64 KiB buffer the rest waits in the process, and `process.exit` would drop it. Each
 * stream's writes complete in order, so waiting for the last write's callback waits for all.
 *
 * A reader that closes early (`engram ... | head`) makes writes fail with EPIPE: the output is
 * no longer wanted, so that error is swallowed instead of crashing the process with a stack trace.
 */
export function streamIo(out: Writable, err: Writable): StreamIo {
  const last = new Map<Writable, Promise<void>>();
  const closed = new Set<Writable>();
  for (const stream of [out, err]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      closed.add(stream);
    });
  }
  const write = (stream: Writable, text: string) => {
    if (closed.has(stream)) return;
    last.set(stream, new Promise((resolve) => stream.write(`${text}\n`, () => resolve())));
  };
  return {
    out: (text) => write(out, text),
    err: (text) => write(err, text),
    drained: async () => {
      await Promise.all(last.values());
    },
  };
}
