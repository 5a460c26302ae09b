import type { ImportProgressEvent } from '../core/api/import';
import { toVaultError, vaultError, type VaultError } from '../core/errors';
import { newId } from '../core/ids';
import type { ImportEvent, ParsedConversation, ParsedResource, ParseSummary } from '../core/import/parsed';
import { parseImport, type ByteSource } from '../core/import/parse-stream';
import { discardStored, emptyFileReport, overallStatus, totalsOf, type FileReport, type ImportReport } from '../core/import/report';
import { ProgressTracker } from '../core/jobs/progress';
import { Yielder } from '../core/jobs/yield';
import { applyWriteSafety, safeField, safeStrings } from '../core/safety/write-safety';
import { contentHash, normalizeMultiline } from '../core/text/normalize';
import { ImportSession, resourceRecordId, type ConversationOutcome } from './import-session';
import { localPreparer, safeExternalId, type PreparedIncoming, type Preparer, type SafetyTally } from './prepare-conversation';
import type { Vault } from './vault';

export { prepareConversation, safeExternalId } from './prepare-conversation';

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
  /**
   * Where conversations are made safe and hashed: a worker of their own in the browser
   * (`workerPreparer`), started on first use for a file of at least WORKER_PREPARE_BYTES and closed
   * when the import ends. Without it, or for a smaller file, this thread prepares them.
   */
  preparer?: () => Preparer;
}

/** A file at least this large is prepared in the preparer's worker; a capture or a small paste is not worth starting one. */
export const WORKER_PREPARE_BYTES = 1_000_000;

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
  // One preparer for the whole import, started by the first file large enough to use it.
  const started: { preparer?: Preparer } = {};
  const preparerFor = (input: ImportInput): Preparer => {
    if (!options.preparer || 'events' in input || (input.size ?? 0) < WORKER_PREPARE_BYTES) return localPreparer;
    return (started.preparer ??= options.preparer());
  };
  try {
    for (let index = 0; index < inputs.length; index++) {
      if (options.signal?.aborted) {
        const cancelled = vaultError('import/cancelled', `Import cancelled before ${inputs[index]!.name} was read.`);
        files.push(discardStored(emptyFileReport(inputs[index]!.name), 'cancelled', cancelled));
        continue;
      }
      const input = inputs[index]!;
      files.push(await importOne(vault, input, { id, index, count: inputs.length, now, options, preparer: preparerFor(input) }));
    }
  } finally {
    started.preparer?.close();
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
  preparer: Preparer;
}

async function importOne(vault: Vault, input: ImportInput, ctx: FileContext): Promise<FileReport> {
  const session = new ImportSession(vault.db, `${ctx.id}/${ctx.index}`, () => vault.clock.stamp());
  const report = emptyFileReport(input.name);
  // Time left follows the bytes whose rows are written, not the bytes read: reading runs a batch
  // ahead of the writes, and the writes are where the time goes (issue 19). They slow as the vault
  // grows, so the time left follows their trend, not only their recent rate.
  const tracker = ProgressTracker.withTrend();
  tracker.record(ctx.now(), 0);
  const writer = new BatchWriter(session, report, ctx.preparer, (bytes) => tracker.record(ctx.now(), bytes));
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
 * Buffers safe, hashed conversations and writes them in bounded batches; tallies the report.
 * Parsing runs ahead of the writes by up to two batches: the database works in another thread (in
 * Chromium, the browser process), and waiting for each write before reading on left one of the two
 * cores idle (issue 19). The session stores batches in order, each one's lookup after the previous
 * write, so every lookup sees every row written before it.
 */
class BatchWriter {
  /** The buffered conversations, each being prepared (in a worker, or prepared already here). */
  private batch: Promise<PreparedIncoming>[] = [];
  private batchMessages = 0;
  private inFlight: Promise<void> | null = null;
  /** Settles once the last flushed batch was handed to the session: batches reach it in order. */
  private handedOver: Promise<unknown> = Promise.resolve();
  readonly conversationIds: string[] = [];
  readonly resourceIds: string[] = [];

  /** Bytes read when the conversations now buffered were complete. */
  private bytesRead = 0;

  constructor(
    private readonly session: ImportSession,
    private readonly report: FileReport,
    private readonly preparer: Preparer,
    /** Called when a batch is written, with the bytes read up to its last conversation. */
    private readonly onWritten: (bytes: number) => void = () => undefined,
  ) {}

  readUpTo(bytes: number): void {
    this.bytesRead = bytes;
  }

  async conversation(parsed: ParsedConversation): Promise<void> {
    // In this thread a conversation is prepared before the next is read, as it always was; a
    // worker prepares it while this thread reads on, and the batch waits for it when flushed.
    const prepared = this.preparer === localPreparer ? Promise.resolve(await localPreparer.prepare(parsed)) : this.preparer.prepare(parsed);
    prepared.catch(() => undefined); // awaited by the flush of its batch; never unhandled meanwhile
    this.batch.push(prepared);
    this.batchMessages += parsed.messages.length;
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

  private safe(text: string) {
    const result = applyWriteSafety(text);
    this.tally(result);
    return result;
  }

  private tally(result: SafetyTally): void {
    for (const [kind, n] of Object.entries(result.redactions)) {
      this.report.redactions += n ?? 0;
      this.report.redactionsByKind[kind] = (this.report.redactionsByKind[kind] ?? 0) + (n ?? 0);
    }
    for (const flag of result.flags) {
      this.report.flags++;
      this.report.flagsByKind[flag] = (this.report.flagsByKind[flag] ?? 0) + 1;
    }
    this.report.hiddenCharactersRemoved += result.hiddenRemoved;
  }

  async flushIfFull(): Promise<void> {
    if (this.batch.length >= BATCH_CONVERSATIONS || this.batchMessages >= BATCH_MESSAGES) await this.flush();
  }

  /**
   * Hands the buffered batch to the session once it is prepared (and after the batch before it was
   * handed over), then waits for the batch before it (whose error is thrown here): at most two
   * batches are held, one being written and one queued behind it.
   */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.batchMessages = 0;
    const bytes = this.bytesRead;
    // Wrapped, so `handed` settles when the session has the batch, not when it is written.
    const handed = Promise.all([Promise.all(batch), this.handedOver]).then(([prepared]) => {
      for (const { tallies } of prepared) for (const tally of tallies) this.tally(tally);
      return { written: this.session.add(prepared.map((p) => p.incoming)) };
    });
    this.handedOver = handed.then(
      () => undefined,
      () => undefined,
    );
    const write = handed
      .then(({ written }) => written)
      .then((outcomes) => {
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
