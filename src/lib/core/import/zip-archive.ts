/**
 * Reading an export delivered as a ZIP (ChatGPT, Claude, DeepSeek, Grok and Takeout all ship
 * ZIPs). Every `.json` entry is parsed and detected by content; other entries (images, `chat.html`,
 * attachments) are not read, so the HTML copy of the conversations is never counted twice.
 * ChatGPT's `conversations.json` or its shards `conversations-000.json`, `-001.json`, ... are all
 * read, in archive order; a conversation seen in an earlier entry is skipped as a repeat.
 *
 * A failure in an entry that is chat data (a `conversations*.json` name, or an entry whose format
 * was already recognised) fails the whole archive; a failure in any other JSON entry (user.json,
 * settings) only skips that entry, with its reason.
 */
import { vaultError, type VaultError } from '../errors';
import { FileParser } from './file-parser';
import type { ImportEvent } from './parsed';
import type { ImportLimits } from './limits';
import { summaryOf, toEvent } from './summary';
import { inspectZip, ZipReader, type ZipEvent } from './zip';

export interface ZipArchiveOptions {
  name: string;
  limits: ImportLimits;
  totalBytes: number | null;
  signal?: AbortSignal;
  /** The whole archive when it is already in memory: its directory is checked before inflating. */
  whole: Uint8Array | null;
}

const PRIMARY = /^conversations(?:-\d+)?\.json$/iu;

function baseName(entry: string): string {
  return entry.split(/[/\\]/u).pop() ?? entry;
}

/** JSON entries, minus macOS resource-fork litter. */
export function isChatCandidate(entry: string): boolean {
  const base = baseName(entry);
  return /\.json$/iu.test(base) && !base.startsWith('._') && !entry.split(/[/\\]/u).includes('__MACOSX');
}

interface OpenEntry {
  name: string;
  parser: FileParser;
}

export async function* readZipArchive(
  head: Uint8Array,
  rest: AsyncGenerator<Uint8Array>,
  opts: ZipArchiveOptions,
): AsyncGenerator<ImportEvent, void, undefined> {
  const { name, limits } = opts;
  const results: { name: string; result: FileParser['result'] }[] = [];
  const notes: string[] = [];
  let bytesRead = 0;
  const done = async (errors: VaultError[]): Promise<ImportEvent> => {
    await rest.return(undefined);
    const summary = summaryOf(name, 'zip', results, bytesRead);
    summary.errors.push(...errors);
    summary.notes.push(...notes);
    return { type: 'done', summary };
  };

  const early = opts.whole ? inspectZip(opts.whole, name, limits) : null;
  if (early) {
    yield await done([early]);
    return;
  }

  const reader = new ZipReader(name, isChatCandidate, limits);
  const seen = new Map<string, string>();
  const open = new Map<number, OpenEntry>();
  let entries = 0;
  let notRead = 0;
  let htmlCopy = false;
  let fatal: VaultError | null = null;
  let fatalReported = false;

  const finish = (entry: OpenEntry) => {
    const result = entry.parser.result;
    results.push({ name: entry.name, result });
    if (result.errors.length === 0) return;
    if (PRIMARY.test(baseName(entry.name)) || result.format !== null) {
      // Already in `results`, so the summary carries it; `fatal` only stops the reading.
      fatal ??= result.errors[0]!;
      fatalReported = true;
    } else {
      result.skipped.push({ what: `archive entry "${entry.name}"`, reason: result.errors.map((e) => e.message).join(' '), kind: 'entry' });
      result.errors = [];
    }
  };
  const handle = function* (events: ZipEvent[]): Generator<ImportEvent> {
    for (const ev of events) {
      if (ev.type === 'entry') {
        entries++;
        if (ev.read) open.set(ev.index, { name: ev.name, parser: new FileParser(`"${ev.name}" in ${name}`, limits, seen) });
        else if (!/[/\\]$/u.test(ev.name)) {
          notRead++;
          if (/^chat\.html$/iu.test(baseName(ev.name))) htmlCopy = true;
        }
        continue;
      }
      const entry = open.get(ev.index);
      if (!entry) continue;
      const emitted = ev.type === 'data' ? entry.parser.push(ev.data) : entry.parser.end();
      for (const e of emitted) yield toEvent(e, entry.name);
      if (ev.type === 'end') {
        open.delete(ev.index);
        finish(entry);
      }
    }
  };

  const feed = async function* (): AsyncGenerator<Uint8Array> {
    if (head.length > 0) yield head;
    yield* rest;
  };
  try {
    for await (const chunk of feed()) {
      if (opts.signal?.aborted) {
        yield await done([vaultError('import/cancelled', `Reading ${name} was cancelled.`)]);
        return;
      }
      bytesRead += chunk.length;
      yield* handle(reader.push(chunk));
      if (fatal) break;
      yield { type: 'progress', bytesRead, bytesTotal: opts.totalBytes };
    }
    if (!fatal) yield* handle(reader.push(new Uint8Array(0), true));
  } catch (thrown) {
    fatal ??=
      typeof thrown === 'object' && thrown !== null && 'toJSON' in thrown
        ? (thrown as { toJSON(): VaultError }).toJSON()
        : vaultError('import/failed', String(thrown));
  }
  if (fatal) {
    yield await done(fatalReported ? [] : [fatal]);
    return;
  }

  const shards = results.filter((r) => PRIMARY.test(baseName(r.name))).length;
  if (shards > 1) notes.push(`${shards} conversation shards read`);
  if (notRead > 0)
    notes.push(`${notRead} other archive entr${notRead === 1 ? 'y was' : 'ies were'} not read (images, attachments, HTML pages)`);
  if (htmlCopy) notes.push('chat.html was not read: it repeats the conversations of the JSON files');
  const formats = new Set(results.map((r) => r.result.format).filter((f) => f !== null));
  if (formats.size > 1) notes.push(`the archive mixes formats: ${[...formats].join(', ')}`);
  if (entries === 0) {
    yield await done([vaultError('import/empty', `${name} is an empty ZIP archive.`)]);
  } else if (formats.size === 0) {
    const why =
      results.length === 0
        ? `it has no JSON files (${entries} other entr${entries === 1 ? 'y' : 'ies'})`
        : 'none of its JSON files is a chat export we know';
    yield await done([vaultError('import/unknown-format', `${name} holds no chat export we know: ${why}.`, { entries })]);
  } else {
    yield await done([]);
  }
}
