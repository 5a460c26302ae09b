/**
 * The importer's parsing front door: bytes in (a `ReadableStream<Uint8Array>`, any async
 * iterable of byte chunks, or one buffer), events out, one conversation at a time, with progress
 * in bytes read. ZIPs are recognised by their magic bytes and read entry by entry; other archive
 * types are refused. The last event is always `done` with a summary that reconciles the counts.
 *
 * Memory is bounded by one conversation's text and object graph (plus one inflated 64 KiB ZIP
 * piece), whatever the file size, except for documents that are not a top-level JSON list, which
 * are read whole up to `maxDocumentChars`.
 */
import { vaultError, type VaultError } from '../errors';
import { sniffArchive } from './detect';
import { FileParser } from './file-parser';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './limits';
import type { ImportEvent, ParseSummary, ParsedFile } from './parsed';
import { summaryOf, toEvent } from './summary';
import { readZipArchive } from './zip-archive';

export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array> | Uint8Array;

export interface ParseOptions {
  /** Display label (the file name); used in messages only, never as a path or for detection. */
  name?: string;
  /** Total size when known (File.size), for progress. */
  totalBytes?: number | null;
  signal?: AbortSignal;
  limits?: Partial<ImportLimits>;
}

/** Bytes sniffed before choosing between ZIP, refused archive and text (tar's magic sits at 257). */
const SNIFF_BYTES = 512;

export async function* byteChunks(source: ByteSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    // Re-sliced so even an in-memory buffer flows through the same bounded path.
    for (let at = 0; at < source.length; at += 1024 * 1024) yield source.subarray(at, at + 1024 * 1024);
    return;
  }
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) {
    const reader = source.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return;
        }
        yield value;
      }
    } finally {
      // Stopped early (a failed file, a cancel): tell the source, so a file read stops too.
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
  yield* source as AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

function failedSummary(name: string, error: VaultError, bytesRead: number): ParseSummary {
  const s = summaryOf(name, null, [], bytesRead);
  s.errors.push(error);
  return s;
}

const ARCHIVE_NAMES: Record<string, string> = { gzip: 'gzip', rar: 'RAR', '7z': '7-Zip', bzip2: 'bzip2', xz: 'xz', tar: 'tar' };

/**
 * Parses one input. Never throws on bad input: every problem ends in the `done` summary.
 * If `summary.errors` is non-empty, everything yielded before must be discarded.
 */
export async function* parseImport(source: ByteSource, options: ParseOptions = {}): AsyncGenerator<ImportEvent, void, undefined> {
  const name = options.name ?? 'The file';
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits };
  const totalBytes = options.totalBytes ?? (source instanceof Uint8Array ? source.length : null);
  const chunks = byteChunks(source);
  let bytesRead = 0;
  let head = new Uint8Array(0);
  // Manual next(): a for-await `break` would close the source before the rest is read.
  while (head.length < SNIFF_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    const joined = new Uint8Array(head.length + next.value.length);
    joined.set(head);
    joined.set(next.value, head.length);
    head = joined;
  }
  const kind = sniffArchive(head);
  if (kind === 'zip') {
    yield* readZipArchive(head, chunks, {
      name,
      limits,
      totalBytes,
      signal: options.signal,
      whole: source instanceof Uint8Array ? source : null,
    });
    return;
  }
  if (kind !== null) {
    await chunks.return(undefined);
    const what = ARCHIVE_NAMES[kind] ?? kind;
    yield {
      type: 'done',
      summary: failedSummary(
        name,
        vaultError(
          'import/unsupported-archive',
          `${name} is a ${what} archive, which cannot be read. Unpack it, or export a ZIP or JSON file.`,
        ),
        head.length,
      ),
    };
    return;
  }

  const parser = new FileParser(name, limits);
  const feed = async function* (first: Uint8Array): AsyncGenerator<Uint8Array> {
    if (first.length > 0) yield first;
    yield* chunks;
  };
  for await (const chunk of feed(head)) {
    if (options.signal?.aborted) {
      await chunks.return(undefined);
      yield { type: 'done', summary: failedSummary(name, vaultError('import/cancelled', `Reading ${name} was cancelled.`), bytesRead) };
      return;
    }
    bytesRead += chunk.length;
    for (const e of parser.push(chunk)) yield toEvent(e, null);
    yield { type: 'progress', bytesRead, bytesTotal: totalBytes };
    if (parser.failed) {
      await chunks.return(undefined);
      break;
    }
  }
  if (bytesRead === 0) {
    yield { type: 'done', summary: failedSummary(name, vaultError('import/empty', `${name} is empty.`), 0) };
    return;
  }
  for (const e of parser.end()) yield toEvent(e, null);
  yield { type: 'done', summary: summaryOf(name, null, [{ name, result: parser.result }], bytesRead) };
}

/** Collects a whole parse (small inputs, tests, the CLI). */
export async function parseAll(source: ByteSource, options: ParseOptions = {}): Promise<ParsedFile> {
  const file: ParsedFile = { summary: summaryOf(options.name ?? 'The file', null, [], 0), conversations: [], resources: [] };
  for await (const event of parseImport(source, options)) {
    if (event.type === 'conversation') file.conversations.push(event.conversation);
    else if (event.type === 'resource') file.resources.push(event.resource);
    else if (event.type === 'done') file.summary = event.summary;
  }
  return file;
}
