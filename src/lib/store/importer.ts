import type { ImportProgressEvent } from '../core/api/import';
import { toVaultError, vaultError, type VaultError } from '../core/errors';
import { newId } from '../core/ids';
import type { ImportEvent, ParsedConversation, ParsedResource, ParseSummary } from '../core/import/parsed';
import { parseImport, type ByteSource } from '../core/import/parse-stream';
import { discardStored, emptyFileReport, overallStatus, totalsOf, type FileReport, type ImportReport } from '../core/import/report';
import { ProgressTracker } from '../core/jobs/progress';
import { Yielder } from '../core/jobs/yield';
import { applyWriteSafety, safeField, safeStrings, type WriteSafetyResult } from '../core/safety/write-safety';
import { contentHash, normalizeMultiline, sha256Hex } from '../core/text/normalize';
import {
  ImportSession,
  resourceRecordId,
  type ConversationOutcome,
  type IncomingConversation,
  type IncomingMessage,
} from './import-session';
import type { Vault } from './vault';

export type ImportInput =
  | {
      /** Display name (the file name); never used as a path or for detection. */
      name: string;
      size: number | null;
      bytes: ByteSource;
    }
  | {
      name: string;
      size: number | null;
      /** Already parsed (a capture): the same storage path, without the parser. */
      events: AsyncIterable<ImportEvent>;
    };

/** Progress of an import, as the UI shows it (the same shape crosses the worker boundary). */
export type ImportProgress = ImportProgressEvent;

export interface ImportOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  now?: () => number;
  /** Called once per file after its rows became visible (queue follow-up work here). */
  onPublished?: (published: { conversationIds: string[]; resourceIds: string[] }) => Promise<void>;
  /**
   * Called when the import's row exists and before any file is read; the returned function is
   * called when the import ends (the browser holds a Web Lock named after the import meanwhile).
   */
  onStarted?: (importId: string) => Promise<() => void>;
}

/** Conversations per write batch, and messages (whichever limit is reached first). */
const BATCH_CONVERSATIONS = 50;
const BATCH_MESSAGES = 2_000;

/**
 * Imports files into the vault, raw first: each file's conversations are parsed one at a time,
 * passed through write-time safety, and written as staged rows in bounded batches; when the file
 * parsed cleanly they become visible in one step, otherwise (an error, a cancel) they are removed and
 * the vault is exactly as before. Every file's report reconciles what was found with what was stored.
 */
export async function runImport(vault: Vault, inputs: readonly ImportInput[], options: ImportOptions = {}): Promise<ImportReport> {
  const now = options.now ?? Date.now;
  const id = newId('imp');
  const startedAt = now();
  const label = safeField(inputs.map((i) => i.name).join(', '));
  await vault.imports.put({ id, startedAt, finishedAt: null, status: 'running', label, report: null });
  const release = (await options.onStarted?.(id)) ?? (() => undefined);
  const files: FileReport[] = [];
  try {
    for (let index = 0; index < inputs.length; index++) {
      if (options.signal?.aborted) {
        const cancelled = vaultError('import/cancelled', `Import cancelled before ${inputs[index]!.name} was read.`);
        files.push(discardStored(emptyFileReport(inputs[index]!.name), 'cancelled', cancelled));
        continue;
      }
      files.push(await importOne(vault, inputs[index]!, { id, index, count: inputs.length, now, options }));
    }
  } finally {
    release();
  }
  const report: ImportReport = { id, startedAt, finishedAt: now(), status: overallStatus(files), files, totals: totalsOf(files) };
  // The report quotes file names, titles and parser remarks: stored (and returned) through write safety too.
  const safeReport = safeStrings(report);
  await vault.imports.put({
    id,
    startedAt,
    finishedAt: report.finishedAt,
    status: report.status === 'partial' ? 'done' : report.status,
    label,
    report: safeReport,
  });
  return safeReport;
}

interface FileContext {
  id: string;
  index: number;
  count: number;
  now: () => number;
  options: ImportOptions;
}

async function importOne(vault: Vault, input: ImportInput, ctx: FileContext): Promise<FileReport> {
  const session = new ImportSession(vault.db, `${ctx.id}/${ctx.index}`, () => vault.clock.stamp());
  const report = emptyFileReport(input.name);
  // Time left follows the bytes whose rows are written, not the bytes read: reading runs a batch
  // ahead of the writes, and the writes are where the time goes (issue 19). They slow as the vault
  // grows, so the time left follows their trend, not only their recent rate.
  const tracker = ProgressTracker.withTrend();
  tracker.record(ctx.now(), 0);
  const writer = new BatchWriter(session, report, (bytes) => tracker.record(ctx.now(), bytes));
  const progress = (bytesRead: number, bytesTotal: number | null) => {
    const estimate = tracker.estimate(bytesTotal ?? 0);
    ctx.options.onProgress?.({
      importId: ctx.id,
      fileIndex: ctx.index,
      fileCount: ctx.count,
      fileName: input.name,
      bytesRead,
      bytesTotal,
      conversations: report.conversations.stored + report.conversations.existing,
      messages: report.messages.stored + report.messages.existing,
      ratePerSecond: estimate.ratePerSecond,
      etaMs: bytesTotal ? estimate.etaMs : null,
    });
  };
  let summary: ParseSummary | null = null;
  try {
    const events =
      'events' in input ? input.events : parseImport(input.bytes, { name: input.name, totalBytes: input.size, signal: ctx.options.signal });
    const yielder = new Yielder();
    for await (const event of events) {
      await yielder.maybe();
      if (event.type === 'conversation') await writer.conversation(event.conversation);
      else if (event.type === 'resource') await writer.resource(event.resource, ctx.now());
      else if (event.type === 'progress') {
        writer.readUpTo(event.bytesRead);
        await writer.flushIfFull();
        progress(event.bytesRead, event.bytesTotal);
      } else summary = event.summary;
    }
    await writer.drain();
    if (!summary) throw vaultError('import/failed', `${input.name} ended before it was fully read.`);
    applySummary(report, summary);
    const failure = summary.errors[0];
    if (failure) return await abandon(session, report, failure.code === 'import/cancelled' ? 'cancelled' : 'failed', failure);
    if (ctx.options.signal?.aborted)
      return await abandon(session, report, 'cancelled', vaultError('import/cancelled', `Import of ${input.name} was cancelled.`));
    await session.publish();
    await ctx.options.onPublished?.({ conversationIds: writer.conversationIds, resourceIds: writer.resourceIds });
    return report;
  } catch (thrown) {
    await writer.settle();
    const error = toVaultError(thrown, 'import/failed');
    return abandon(session, report, error.code === 'import/cancelled' ? 'cancelled' : 'failed', error);
  }
}

async function abandon(session: ImportSession, report: FileReport, status: 'failed' | 'cancelled', error: VaultError): Promise<FileReport> {
  await session.rollback();
  return discardStored(report, status, error);
}

function applySummary(report: FileReport, summary: ParseSummary): void {
  report.format = summary.archive ? `${summary.archive}:${summary.format ?? 'unknown'}` : summary.format;
  report.bytes = summary.bytesRead;
  report.skipped = summary.skipped;
  report.unknownContentTypes = summary.unknownContentTypes;
  report.notes = summary.notes;
  const skippedConversations = summary.skipped.filter((s) => s.kind !== 'entry').length;
  report.conversations.skipped = skippedConversations;
  report.conversations.found = report.conversations.stored + report.conversations.existing + skippedConversations;
}

/**
 * A parsed conversation made ready to store: every message through write-time safety (secrets
 * redacted, hidden characters stripped, injection flagged) and hashed from its safe text.
 * `observe` sees each message's safety result (the report tallies them).
 */
export async function prepareConversation(
  parsed: ParsedConversation,
  observe: (result: WriteSafetyResult) => void = () => undefined,
): Promise<IncomingConversation> {
  const messages: IncomingMessage[] = await Promise.all(
    parsed.messages.map(async (m) => {
      const safe = applyWriteSafety(m.text);
      observe(safe);
      const speaker = m.speaker ? safeField(m.speaker).trim() : '';
      return {
        externalId: await safeExternalId(m.externalId),
        role: m.role,
        ...(speaker ? { speaker } : {}),
        text: safe.text,
        contentHash: await contentHash(safe.text),
        createdAt: m.createdAt,
        parentExternalId: m.parentExternalId === null ? null : await safeExternalId(m.parentExternalId),
        onVisiblePath: m.onVisiblePath,
        hidden: m.hidden,
        flags: safe.flags,
      };
    }),
  );
  const title = applyWriteSafety(parsed.title);
  observe(title);
  return {
    source: parsed.source,
    externalId: await safeExternalId(parsed.externalId),
    title: title.text,
    createdAt: parsed.createdAt,
    updatedAt: parsed.updatedAt,
    messages,
  };
}

/**
/**
 * An id from an export that holds a secret (a key pasted where an id belongs) is stored as a
 * hash of itself: the same id always maps to the same hash, so re-imports still meet, and the
 * secret is not kept.
 */
export async function safeExternalId(id: string): Promise<string> {
  return safeField(id) === id ? id : `sha256:${await sha256Hex(id)}`;
}

/**
 * Buffers safe, hashed conversations and writes them in bounded batches; tallies the report.
 * Parsing runs ahead of the writes by up to two batches: the database works in another thread (in
 * Chromium, the browser process), and waiting for each write before reading on left one of the two
 * cores idle (issue 19). The session stores batches in order, each one's lookup after the previous
 * write, so every lookup sees every row written before it.
 */
class BatchWriter {
  private batch: IncomingConversation[] = [];
  private batchMessages = 0;
  private inFlight: Promise<void> | null = null;
  readonly conversationIds: string[] = [];
  readonly resourceIds: string[] = [];

  /** Bytes read when the conversations now buffered were complete. */
  private bytesRead = 0;

  constructor(
    private readonly session: ImportSession,
    private readonly report: FileReport,
    /** Called when a batch is written, with the bytes read up to its last conversation. */
    private readonly onWritten: (bytes: number) => void = () => undefined,
  ) {}

  readUpTo(bytes: number): void {
    this.bytesRead = bytes;
  }

  async conversation(parsed: ParsedConversation): Promise<void> {
    const incoming = await prepareConversation(parsed, (result) => this.tally(result));
    this.batch.push(incoming);
    this.batchMessages += incoming.messages.length;
    await this.flushIfFull();
  }

  async resource(resource: ParsedResource, at: number): Promise<void> {
    const safe = this.safe(resource.text);
    const text = normalizeMultiline(safe.text);
    this.report.resources.found++;
    const id = await resourceRecordId(await safeExternalId(resource.externalId));
    const stored = await this.session.stageResource({
      id,
      text,
      title: this.safe(resource.title).text,
      category: 'Resource',
      status: 'kept',
      tier: resource.tier ?? 'resource',
      confidence: 1,
      sourceMessageIds: [],
      conversationId: null,
      createdAt: at,
      updatedAt: at,
      keptAt: at,
      supersedes: null,
      supersededBy: null,
      accessCount: 0,
      lastAccessedAt: null,
      pinned: false,
      contentHash: await contentHash(text),
      flags: safe.flags,
    });
    if (stored) {
      this.report.resources.stored++;
      this.resourceIds.push(id);
    } else this.report.resources.existing++;
  }

  private safe(text: string): WriteSafetyResult {
    return this.tally(applyWriteSafety(text));
  }

  private tally(result: WriteSafetyResult): WriteSafetyResult {
    for (const [kind, n] of Object.entries(result.redactions)) {
      this.report.redactions += n ?? 0;
      this.report.redactionsByKind[kind] = (this.report.redactionsByKind[kind] ?? 0) + (n ?? 0);
    }
    for (const flag of result.flags) {
      this.report.flags++;
      this.report.flagsByKind[flag] = (this.report.flagsByKind[flag] ?? 0) + 1;
    }
    this.report.hiddenCharactersRemoved += result.hiddenRemoved;
    return result;
  }

  async flushIfFull(): Promise<void> {
    if (this.batch.length >= BATCH_CONVERSATIONS || this.batchMessages >= BATCH_MESSAGES) await this.flush();
  }

  /**
   * Hands the buffered batch to the session, then waits for the batch before it (whose error is
   * thrown here): at most two batches are held, one being written and one queued behind it.
   */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.batchMessages = 0;
    const bytes = this.bytesRead;
    const write = this.session.add(batch).then((outcomes) => {
      this.count(outcomes);
      this.onWritten(bytes);
    });
    write.catch(() => undefined); // awaited by the next flush or drain; never unhandled meanwhile
    const previous = this.inFlight;
    this.inFlight = write;
    if (previous) await previous;
  }

  /** Writes what is buffered and waits until every write is done. */
  async drain(): Promise<void> {
    await this.flush();
    const last = this.inFlight;
    this.inFlight = null;
    if (last) await last;
  }

  /** Waits for a write still in flight, ignoring its outcome (the import is being abandoned). */
  async settle(): Promise<void> {
    const last = this.inFlight;
    this.inFlight = null;
    if (last) await last.catch(() => undefined);
  }

  private count(outcomes: ConversationOutcome[]): void {
    for (const outcome of outcomes) {
      const r = this.report;
      if (outcome.conversation === 'stored') r.conversations.stored++;
      else r.conversations.existing++;
      r.messages.found += outcome.messages.found;
      r.messages.stored += outcome.messages.stored;
      r.messages.existing += outcome.messages.existing;
      r.messages.otherBranches += outcome.otherBranches;
      r.messages.hidden += outcome.hidden;
      if (outcome.conversation === 'stored' || outcome.messages.stored > 0) this.conversationIds.push(outcome.conversationId);
    }
  }
}
