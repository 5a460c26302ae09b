/**
 * The `extract.conversation` job (run by the index worker's job runner): a conversation's visible
 * thread -> windows -> units (the LLM when the page handed one over, else or on failure the
 * rule-based extractor) -> validator -> decision stage against the top-5 similar existing notes ->
 * provisional candidate notes with their flags, plus the session summary. Idempotent: a candidate's
 * id derives from its conversation, category and text, so a retried job writes nothing twice and a
 * discarded candidate does not come back.
 */
import type { ExtractJobPayload, ExtractJobResult } from '../../core/api/extract-api';
import type { Llm } from '../../core/api/llm';
import type { StageBreakers } from '../../core/breaker/circuit-breaker';
import { guardedLlm } from '../../core/breaker/stage-guard';
import { decideCandidate, type Neighbour } from '../../core/curate/decide';
import { withSourceFlags } from '../../core/curate/held';
import { isActive } from '../../core/curate/provenance';
import { NEAR_DUPLICATE_THRESHOLD } from '../../core/curate/similarity';
import { contentWordSet, jaccard } from '../../core/extract/words';
import { candidateNote } from '../../core/extract/candidate-note';
import { extractConversation, type ExtractOptions } from '../../core/extract/driver';
import { summarizeSession } from '../../core/extract/summary';
import { llmHints } from '../../core/recall/llm-hints';
import { EXTRACTOR_VERSION } from '../../core/extract/version';
import type { CandidateUnit, ExtractionMessage } from '../../core/extract/units';
import { vaultError, VaultFailure } from '../../core/errors';
import { derivedRecordId } from '../../core/ids';
import type { NoteRecord } from '../../core/records';
import { contentHash } from '../../core/text/normalize';
import type { JobHandler } from '../../store/job-runner';
import { applyNoteChanges } from '../../store/note-actions';
import { writeSummary } from '../../store/summaries-repo';
import type { Vault } from '../../store/vault';
import { isVisibleMessage } from '../index/documents';
import { isStaleCandidate } from './reextract';
import { markTriplesStale, syncTriples } from '../index/triples';

/** Similar existing notes for a candidate text, best first (the index's search, or term overlap). */
export interface NeighbourSource {
  similar(text: string, k: number): Promise<{ id: string; similarity: number }[]>;
  /** The near-duplicate threshold calibrated for the similarity `similar` returns. */
  threshold(): number;
  /** Candidates just written (a source that keeps its own index adds them; the index worker's re-reads). */
  added?(notes: readonly NoteRecord[]): void;
}

export interface ExtractJobDeps {
  vault: Vault;
  neighbours: NeighbourSource;
  /** The model the page handed over, read at the start of each job; null runs the rule-based extractor. */
  llm: () => Llm | null;
  now?: () => number;
  /** Per LLM call. */
  timeoutMs?: number;
  /** The model stages' circuit breakers (extraction, summaries): open, the rule-based path runs and says until when. */
  breakers?: StageBreakers;
  windowTokens?: number;
}

/**
 * Kept notes by term overlap: the neighbour source without an index (CLI, tests). Like the index
 * (which holds kept notes, not candidates), it compares a candidate with engrams; a candidate equal
 * to another candidate is still found by its content hash. An inverted index of stemmed content
 * words, read from the vault once and told of notes written since, so a look-up touches only notes
 * that share a word.
 */
export function termNeighbours(vault: Vault): NeighbourSource {
  const words = new Map<string, Set<string>>();
  const postings = new Map<string, Set<string>>();
  const add = (note: NoteRecord): void => {
    if (note.status !== 'kept' || note.tier === 'resource' || note.tier === 'web' || words.has(note.id)) return;
    const set = contentWordSet(note.text);
    words.set(note.id, set);
    for (const w of set) postings.set(w, (postings.get(w) ?? new Set()).add(note.id));
  };
  let loaded: Promise<void> | null = null;
  return {
    async similar(text, k) {
      loaded ??= vault.db.notes.toArray().then((notes) => notes.forEach(add));
      await loaded;
      const mine = contentWordSet(text);
      const ids = new Set<string>();
      for (const w of mine) for (const id of postings.get(w) ?? []) ids.add(id);
      return [...ids]
        .map((id) => ({ id, similarity: jaccard(mine, words.get(id)!) }))
        .sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id))
        .slice(0, k);
    },
    threshold: () => NEAR_DUPLICATE_THRESHOLD.terms,
    added: (notes) => notes.forEach(add),
  };
}

async function neighboursOf(vault: Vault, source: NeighbourSource, unit: CandidateUnit, hash: string, ownIds: Set<string>) {
  const hits = await source.similar(unit.text, 5);
  const byHash = await vault.db.notes.where('contentHash').equals(hash).toArray();
  const rows = await vault.db.notes.bulkGet(hits.map((h) => h.id));
  const out = new Map<string, Neighbour>();
  for (const note of byHash) if (!ownIds.has(note.id) && isActive(note)) out.set(note.id, { note, similarity: 1 });
  rows.forEach((note, i) => {
    if (note && !ownIds.has(note.id) && !out.has(note.id)) out.set(note.id, { note, similarity: hits[i]!.similarity });
  });
  return [...out.values()];
}

export async function visibleThread(vault: Vault, conversationId: string): Promise<ExtractionMessage[]> {
  return (await visibleMessages(vault, conversationId)).messages;
}

/** The visible thread as extraction reads it, and each message's write-time safety flags (a candidate inherits them). */
async function visibleMessages(vault: Vault, conversationId: string) {
  const rows = (await vault.conversations.messages(conversationId)).filter(isVisibleMessage);
  return {
    messages: rows.map((m): ExtractionMessage => ({ id: m.id, role: m.role, text: m.text, createdAt: m.createdAt })),
    flags: new Map(rows.map((m) => [m.id, m.flags])),
  };
}

export interface ExtractRunOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** The whole job for one conversation; the job handler and the CLI both run this. */
export async function extractAndStore(deps: ExtractJobDeps, conversationId: string, options: ExtractRunOptions = {}) {
  const { vault } = deps;
  const now = deps.now ?? Date.now;
  const conversation = await vault.conversations.get(conversationId);
  const empty: ExtractJobResult = {
    conversationId,
    extractors: [],
    llmId: null,
    windows: 0,
    fallbacks: [],
    candidates: 0,
    existing: 0,
    rejected: 0,
    summary: null,
    replaced: { restamped: 0, removed: 0 },
  };
  if (!conversation || conversation.state !== 'visible') return { result: empty, notes: [] as NoteRecord[] };
  const { messages, flags: messageFlags } = await visibleMessages(vault, conversationId);
  const lent = deps.llm();
  const guarded = (stage: 'extraction' | 'summaries' | 'hints') =>
    lent && deps.breakers ? guardedLlm(lent, { breaker: deps.breakers.get(stage), now }) : lent;
  const llm = guarded('extraction');
  const extractOptions: ExtractOptions = {
    llm,
    signal: options.signal,
    timeoutMs: deps.timeoutMs,
    maxTokens: deps.windowTokens,
    onWindow: (_report, done, total) => options.onProgress?.(done, total + 1),
  };
  const run = await extractConversation(messages, extractOptions);
  const summary = await summarizeSession(messages, { llm: guarded('summaries'), signal: options.signal, timeoutMs: deps.timeoutMs });
  await writeSummary(vault.db, {
    conversationId,
    text: summary.text,
    words: summary.words,
    method: summary.method,
    llmId: summary.llmId,
    at: now(),
  });

  const drafts = await Promise.all(
    run.units.map(async (unit) => {
      const hash = await contentHash(unit.text);
      return { unit, hash, id: await derivedRecordId('note', conversationId, unit.category, hash) };
    }),
  );
  const ownIds = new Set(drafts.map((d) => d.id));
  const existing = new Set((await vault.db.notes.bulkGet([...ownIds])).filter((n) => n !== undefined).map((n) => n.id));
  // With a model, and hints switched on (Recall's Hints; off by default), the questions each new unit
  // answers: the hint index reads them before its rule hints.
  const fresh = drafts.filter((d) => !existing.has(d.id));
  const asked =
    lent && fresh.length > 0 && (await vault.settings.get('device.recall.hints'))
      ? await llmHints(
          fresh.map((d) => ({ text: d.unit.text, category: d.unit.category })),
          guarded('hints'),
          { signal: options.signal, timeoutMs: deps.timeoutMs },
        )
      : null;
  const hintsOf = new Map(fresh.map((d, i) => [d.id, asked?.hints[i] ?? []]));
  const written: NoteRecord[] = [];
  const extractorOf = (unit: CandidateUnit) =>
    run.windows.find((w) => unit.sourceMessageIds.some((id) => w.messageIds.includes(id)))?.extractor ?? 'rule-based';
  for (const draft of drafts) {
    if (options.signal?.aborted) throw new VaultFailure(vaultError('llm/cancelled', 'Extraction was cancelled.'));
    if (existing.has(draft.id)) continue;
    const neighbours = await neighboursOf(vault, deps.neighbours, draft.unit, draft.hash, ownIds);
    const decision = await decideCandidate({ text: draft.unit.text, contentHash: draft.hash, category: draft.unit.category }, neighbours, {
      threshold: deps.neighbours.threshold(),
      llm,
      signal: options.signal,
      timeoutMs: deps.timeoutMs,
    });
    const extractor = extractorOf(draft.unit);
    const candidate = candidateNote({
      id: draft.id,
      unit: draft.unit,
      contentHash: draft.hash,
      conversationId,
      extractor,
      llmId: extractor === 'llm' ? (llm?.id ?? null) : null,
      decision,
      now: now(),
    });
    // The flags of the messages it cites come with it; from a flagged message it is held out of
    // retrieval until a person keeps it (core/curate/held.ts).
    const sources = candidate.sourceMessageIds.map((id) => messageFlags.get(id) ?? []);
    const hints = hintsOf.get(draft.id) ?? [];
    const note: NoteRecord = { ...candidate, flags: withSourceFlags(candidate.flags, sources), ...(hints.length ? { hints } : {}) };
    await vault.notes.save(note, { actor: 'extractor', action: 'extract', why: `Extracted by the ${extractor} extractor.`, at: now() });
    written.push(note);
    deps.neighbours.added?.([note]);
  }
  // The new candidates' triples (services/index/triples.ts); the index update of a note action writes
  // later ones. They are derived: a failure loses no candidate, and the next start writes them.
  await syncTriples(
    vault.db,
    written.map((n) => n.id),
  ).catch(() => markTriplesStale(vault.db));
  const replaced = await replaceStale(deps, conversationId, ownIds, now());
  options.onProgress?.(run.windows.length + 1, run.windows.length + 1);
  const result: ExtractJobResult = {
    conversationId,
    extractors: run.extractors,
    llmId: run.extractors.includes('llm') ? (llm?.id ?? null) : null,
    windows: run.windows.length,
    fallbacks: run.windows.filter((w) => w.fallbackReason).map((w) => ({ window: w.index, reason: w.fallbackReason! })),
    candidates: written.length,
    existing: existing.size,
    rejected: run.rejected.length,
    summary: { words: summary.words, method: summary.method, fallbackReason: summary.fallbackReason },
    hints: asked ? { units: asked.hints.filter((h) => h.length > 0).length, fallbackReason: asked.fallbackReason } : null,
    replaced,
  };
  return { result, notes: written };
}

/**
 * The conversation's never-reviewed rule-based candidates from an older extractor version
 * (reextract.ts): one this run proposed again (same id: same category and text) is restamped with
 * the current version; one it no longer proposes is removed. One transaction, one history entry
 * each (undo brings a removed one back); kept and discarded notes are not candidates and stay.
 */
async function replaceStale(deps: ExtractJobDeps, conversationId: string, proposed: ReadonlySet<string>, now: number) {
  const stale = (await deps.vault.db.notes.where('conversationId').equals(conversationId).toArray()).filter((n) => isStaleCandidate(n));
  if (stale.length === 0) return { restamped: 0, removed: 0 };
  const changes = stale.map((note) => {
    const again = proposed.has(note.id);
    return {
      recordId: note.id,
      action: again ? 're-extract' : 're-extract:remove',
      why: again
        ? `Proposed again by extractor version ${EXTRACTOR_VERSION}.`
        : `Extractor version ${EXTRACTOR_VERSION} no longer proposes this never-reviewed candidate.`,
      before: note,
      after: again && note.review ? { ...note, review: { ...note.review, extractorVersion: EXTRACTOR_VERSION }, updatedAt: now } : null,
    };
  });
  await applyNoteChanges(deps.vault, changes, { actor: 'extractor', now });
  const restamped = changes.filter((c) => c.after !== null).length;
  return { restamped, removed: changes.length - restamped };
}

export function extractHandler(deps: ExtractJobDeps): JobHandler {
  return async (ctx) => {
    const { conversationId } = (ctx.job.payload ?? {}) as ExtractJobPayload;
    if (typeof conversationId !== 'string')
      throw new VaultFailure(vaultError('input/invalid', 'The extraction job names no conversation.'));
    const { result } = await extractAndStore(deps, conversationId, {
      signal: ctx.signal,
      // Persisted (not only in memory): the Inbox reads progress from the job row.
      onProgress: (done, total) => void ctx.checkpoint(ctx.job.payload, { done, total, unit: 'windows' }).catch(() => undefined),
    });
    return result;
  };
}
