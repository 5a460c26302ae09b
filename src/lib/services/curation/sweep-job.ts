/**
 * The cleaning sweep as a persistent background job (`curate.sweep`, run by the pipeline worker's
 * job runner): reads every atomic note, finds near-duplicates and contradictions over all of them
 * (MinHash LSH candidates confirmed pairwise, core/curate/near-duplicates.ts), gathers the promotion
 * signals (copied packages) and when each note was said, plans the proposals (core/curate/sweep.ts),
 * and stores them for the Notes screen, replacing the previous sweep's pending ones. It changes no
 * note: the person accepts or dismisses each proposal (NotesService / CurationService).
 *
 * Why the pipeline worker: the sweep needs only the store (its candidates come from LSH, not the
 * vector index: measured in docs/CURATE.md), and a minute of CPU there never delays a recall or an
 * embedding batch in the index worker. It yields to the event loop every few thousand notes or pairs,
 * so its lease heartbeat keeps beating, and stops between slices when paused; a retried sweep starts
 * over under the same id (its proposal ids are stable, so nothing is written twice).
 */
import { CURATE_SWEEP_JOB, type SweepJobPayload, type SweepSummary } from '../../core/api/curate-api';
import { NearDuplicateScan, type ScanOptions } from '../../core/curate/near-duplicates';
import { isActive } from '../../core/curate/provenance';
import { NEAR_DUPLICATE_THRESHOLD } from '../../core/curate/similarity';
import { planSweep, toProposalRecords } from '../../core/curate/sweep';
import { acceptedSupersessions, isSweptNote, takePair, type ScannedPairs } from '../../core/curate/sweep-input';
import { newId } from '../../core/ids';
import type { NoteRecord, ProposalType } from '../../core/records';
import { lexicalVector } from '../../models/lexical-embedder';
import type { JobContext, JobHandler } from '../../store/job-runner';
import { withStoreTimeout } from '../../store/transaction';
import type { Vault } from '../../store/vault';
import { storeThreadMaps } from './thread-maps';

export { CURATE_SWEEP_JOB };

/** Notes read per page; notes and pairs handled between two yields to the event loop. */
const PAGE = 2_000;
const SLICE = 2_000;

export interface SweepDeps {
  vault: Vault;
  now?: () => number;
  /** The confirmation's vector check (default: the lexical embedder, what the measurement chose). */
  scan?: ScanOptions;
}

/** The job's confirmation by default: term similarity, then the lexical embedder's cosine (what the measurement chose). */
export function defaultSweepScan(): ScanOptions {
  return { vectors: { of: (text) => lexicalVector(text), threshold: NEAR_DUPLICATE_THRESHOLD.lexical } };
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function readNotes(vault: Vault, ctx: JobContext): Promise<NoteRecord[] | null> {
  const notes: NoteRecord[] = [];
  let after: string | null = null;
  for (;;) {
    if (ctx.signal.aborted) return null;
    const page: NoteRecord[] = await withStoreTimeout(
      after === null ? vault.db.notes.orderBy('id').limit(PAGE).toArray() : vault.db.notes.where('id').above(after).limit(PAGE).toArray(),
      { label: 'reading notes for the cleaning sweep' },
    );
    if (page.length === 0) return notes;
    after = page[page.length - 1]!.id;
    for (const note of page) if (isSweptNote(note)) notes.push(note);
    ctx.progress(notes.length, 0, 'notes read');
    await yieldToLoop();
  }
}

/** Copies of the chunks that cover each candidate's source turns (the chunks' `lastCopiedAt` index finds the copied ones). */
async function sourceCopies(vault: Vault, notes: readonly NoteRecord[]): Promise<Map<string, number>> {
  const copied = await withStoreTimeout(vault.db.chunks.where('lastCopiedAt').above(0).toArray(), { label: 'reading copied chunks' });
  const byMessage = new Map<string, number>();
  for (const chunk of copied) for (const id of chunk.messageIds) byMessage.set(id, Math.max(byMessage.get(id) ?? 0, chunk.copyCount ?? 0));
  const out = new Map<string, number>();
  if (byMessage.size === 0) return out;
  for (const note of notes) {
    if (note.status !== 'provisional') continue;
    const copies = Math.max(0, ...note.sourceMessageIds.map((id) => byMessage.get(id) ?? 0));
    if (copies > 0) out.set(note.id, copies);
  }
  return out;
}

/** When each note was said: its conversation's date. */
async function saidAt(vault: Vault, notes: readonly NoteRecord[]): Promise<Map<string, number>> {
  const ids = [...new Set(notes.map((n) => n.conversationId).filter((id): id is string => id !== null))];
  const conversations = await withStoreTimeout(vault.db.conversations.bulkGet(ids), { label: 'reading conversation dates' });
  const dates = new Map(conversations.filter((c) => c?.createdAt != null).map((c) => [c!.id, c!.createdAt!]));
  const out = new Map<string, number>();
  for (const note of notes) {
    const at = note.conversationId ? dates.get(note.conversationId) : undefined;
    if (at !== undefined) out.set(note.id, at);
  }
  return out;
}

async function scanAll(
  notes: readonly NoteRecord[],
  options: ScanOptions,
  ctx: JobContext,
): Promise<(ScannedPairs & { compared: number; candidates: number }) | null> {
  const scan = new NearDuplicateScan(options);
  const active = notes.filter(isActive);
  for (let at = 0; at < active.length; at += SLICE) {
    if (ctx.signal.aborted) return null;
    for (const note of active.slice(at, at + SLICE)) scan.add(note);
    ctx.progress(Math.min(active.length, at + SLICE), active.length, 'notes compared');
    await yieldToLoop();
  }
  const out: ScannedPairs = { similarPairs: [], contradictions: [] };
  let candidates = 0;
  for (const [i, j] of scan.candidatePairs()) {
    takePair(scan, i, j, out);
    if (++candidates % SLICE === 0) {
      if (ctx.signal.aborted) return null;
      await yieldToLoop();
    }
  }
  return { ...out, compared: active.length, candidates };
}

export function sweepHandler(deps: SweepDeps): JobHandler {
  const { vault } = deps;
  const now = deps.now ?? Date.now;
  const scanOptions: ScanOptions = deps.scan ?? defaultSweepScan();
  return async (ctx) => {
    const payload = (ctx.job.payload ?? {}) as SweepJobPayload;
    const sweepId = payload.sweepId ?? newId('sweep');
    if (!payload.sweepId) await ctx.checkpoint({ ...payload, sweepId });
    const startedAt = now();
    const notes = await readNotes(vault, ctx);
    if (!notes) return null;
    const scanned = await scanAll(notes, scanOptions, ctx);
    if (!scanned) return null;
    const accepted = acceptedSupersessions(notes);
    const proposals = planSweep({
      notes,
      similarPairs: scanned.similarPairs,
      contradictions: scanned.contradictions,
      threshold: NEAR_DUPLICATE_THRESHOLD.terms,
      acceptedSupersessions: accepted,
      contradicted: new Set(accepted.map(([, older]) => older)),
      sourceCopies: await sourceCopies(vault, notes),
      saidAt: await saidAt(vault, notes),
      now: now(),
    });
    if (ctx.signal.aborted) return null;
    const dismissed = await vault.proposals.dismissedKeys();
    const records = toProposalRecords(proposals, sweepId, now()).filter((r) => !dismissed.has(r.key));
    await vault.proposals.write(records, async (written) => ctx.progress(written, records.length, 'proposals saved'));
    await vault.proposals.retire(sweepId);
    const threadMaps = await storeThreadMaps(vault, notes, now());
    const counts: Partial<Record<ProposalType, number>> = {};
    for (const r of records) counts[r.type] = (counts[r.type] ?? 0) + 1;
    const summary: SweepSummary = {
      sweepId,
      reason: payload.reason ?? 'on-demand',
      startedAt,
      finishedAt: now(),
      notes: notes.length,
      compared: scanned.compared,
      candidatePairs: scanned.candidates,
      duplicatePairs: scanned.similarPairs.length,
      contradictions: scanned.contradictions.length,
      proposals: counts,
      skippedDismissed: proposals.length - records.length,
      threadMaps,
    };
    await vault.settings.set('curate.lastSweep', summary);
    return summary;
  };
}
