/**
 * The index service: what the index worker exposes (src/lib/core/api/index-api.ts) minus the
 * worker plumbing, so the Node CLI and the tests run exactly this code. It loads the indexes,
 * provides the job handlers that keep them current, answers the read path's searches (as the
 * recall service's sources), and manages which embedder serves.
 */
import { loadTokenCounter } from '../../core/text/token-count';
import { sanitizeForRead } from '../../core/safety/sanitize-read';
import { choiceId, type EmbedderChoice, type EmbeddingModelSpec } from '../../core/api/embedder';
import {
  indexEmbedJob,
  indexTriplesJob,
  type EntityLinks,
  type TopEntity,
  type HealthReport,
  type IndexStatus,
  type ModelEntry,
  type ModelFileInput,
} from '../../core/api/index-api';
import { fail } from '../../core/errors';
import type { Int8Vectors } from '../../core/index/int8-vectors';
import { yieldToEventLoop } from '../../core/jobs/yield';
import type { CandidateRecord, LexicalHit, VectorHit } from '../../core/recall/ports';
import type { JobHandler } from '../../store/job-runner';
import type { RecallSources } from '../recall/recall-sources';
import { linkEntities } from '../../core/graph/entity-linker';
import { tripleLine } from '../../core/graph/triple';
import type { ConversationSearchRequest, ConversationSearchResult } from '../../core/api/conversation-search';
import { readCandidates, scopedNotes } from './candidates';
import { searchConversations } from './conversation-search';
import type { LoadedEmbedder } from './embedder-host';
import { embedPlan, persist, promoteIfComplete, runHealthCheck } from './embedding';
import { indexHandlers } from './index-jobs';
import { type IndexDeps, IndexParts } from './index-parts';
import { embedderLabel, loadState, openModel } from './load';
import type { VectorSearchMode } from './model-index';
import { indexStatus } from './status';
import { LEXICAL } from './vector-indexes';
import { newestSessionUnits, STRUCTURE_ID, StructureView } from './structure-view';
import { HintView } from './hint-view';
import { triplesAbout, triplesCurrent, triplesFor } from './triples';

export interface IndexServiceDeps extends IndexDeps {
  /** How vector searches are answered (default 'hnsw', as the app does). */
  vectorSearch?: VectorSearchMode;
  /** What `start` prepares ahead of the first recall when the vault holds documents (default: warmReadPath). */
  warmRecall?: () => Promise<void>;
}

/**
 * What the first recall would otherwise prepare while the person waits: the token counter's table
 * (a 2 MB script, a quarter of a second to evaluate) and the read-time safety scanners (their
 * patterns compile on first use: 32 ms in Node). Neither writes anything.
 */
export async function warmReadPath(): Promise<void> {
  await loadTokenCounter();
  sanitizeForRead('Warming up the read path.');
}

/**
 * The column copy's background fill waits until the index has not been read for this long: a
 * recall reads it every few milliseconds (keyword lists, vector lists, records), so a recall that
 * comes while the copy fills waits for at most the block being filled, not a block between each of
 * its reads (a fill that only yielded between blocks held the first recall after a reload at 300k
 * chunks for 4.5 s in Node: docs/INDEX.md).
 */
const FILL_QUIET_MS = 50;

/** Triples the entity panel lists at most. */
const FACTS_SHOWN = 12;

export class IndexService {
  readonly parts: IndexParts;
  /** Called after work was queued (the worker wakes its runner). */
  onQueued: () => void = () => undefined;
  private readonly vectorMode: VectorSearchMode;
  private readonly warm: () => Promise<void>;
  /** The GLOBAL view's structural units (summaries, thread maps, communities), built on demand. */
  readonly structure: StructureView;
  /** The hints of every chunk and note in their own keyword index (core/recall/hints.ts). */
  readonly hints: HintView;

  constructor(deps: IndexServiceDeps) {
    this.parts = new IndexParts(deps);
    this.vectorMode = deps.vectorSearch ?? 'hnsw';
    this.warm = deps.warmRecall ?? warmReadPath;
    this.structure = new StructureView(this.parts, (ids) => readCandidates(this.parts.vault, ids));
    this.hints = new HintView(this.parts, (ids) => readCandidates(this.parts.vault, ids));
  }

  /** Loads every index; queues embedding when documents lack vectors (e.g. after a crash). */
  async start(): Promise<void> {
    await loadState(this.parts);
    const serving = this.parts.indexes.serving.choice;
    if (serving.kind !== 'lexical') void this.parts.embedders.get(serving).catch(() => undefined);
    // A vault with anything to recall prepares the read path now (warmReadPath), not while the
    // person waits on the first recall. An empty vault counts no tokens, so it loads nothing
    // (docs/BUNDLE.md). A failed load (offline before the chunk was cached) is retried by the
    // first caller that needs it. The int8 scan's column copy is filled in the background, a block
    // at a time, from the end of `start` on: in one piece it held back the worker's first answers
    // (docs/INDEX.md).
    if (this.parts.catalog.size > 0) void this.warm().catch(() => undefined);
    if (!this.parts.readOnly && embedPlan(this.parts).length > 0) await this.queueEmbedding();
    // Triples written by an older recipe (or by none: a vault from before them) are written again.
    if (!this.parts.readOnly && !(await triplesCurrent(this.parts.vault.db))) {
      await this.parts.vault.jobs.enqueue(indexTriplesJob(), this.parts.now());
      this.onQueued();
    }
    this.fillScanColumns(true);
  }

  /** A follower reloads what the leader saved. */
  async reload(): Promise<void> {
    await this.parts.lock.run(() => loadState(this.parts));
    this.fillScanColumns(true);
  }

  /** The background run filling the int8 scan's column copy (null: none is going). */
  private columnsRun: Promise<void> | null = null;
  /** When a recall last read the index (`performance.now()`): the column fill waits while reads come. */
  private lastRead = Number.NEGATIVE_INFINITY;

  private reading(): void {
    this.lastRead = performance.now();
  }

  private scanRows(): Int8Vectors | null {
    return this.parts.indexes.serving.model?.index.int8Rows ?? null;
  }

  /**
   * Fills the serving int8 scan's column copy (core/index/int8-vectors.ts) a block at a time, the
   * event loop let through between blocks and nothing filled while recalls read the index
   * (FILL_QUIET_MS), while sparse queries want it: after one was asked (`columnsPending`), or,
   * `ahead`, when the rows look sparse (after a load). A query meanwhile scans the filled blocks
   * through the copy and the rest by row, with the same answers. Nothing when a run is going; the
   * run follows the serving index if it is replaced.
   */
  private fillScanColumns(ahead = false): void {
    if (this.columnsRun) return;
    const rows = this.scanRows();
    if (!rows || !(ahead ? rows.columnsWanted() : rows.columnsPending)) return;
    this.columnsRun = (async () => {
      for (;;) {
        const quiet = performance.now() - this.lastRead;
        if (quiet < FILL_QUIET_MS) {
          await new Promise((resolve) => setTimeout(resolve, FILL_QUIET_MS - quiet));
          continue;
        }
        const current = this.scanRows();
        if (!current || !current.columnsWanted() || current.buildColumnsStep()) return;
        await yieldToEventLoop();
      }
    })()
      // The copy is an accelerator: a fill that fails leaves the rows serving every query.
      .catch(() => undefined)
      .finally(() => {
        this.columnsRun = null;
      });
  }

  /** Resolves once the serving scan's column copy is filled (benchmarks wait for it before timing queries). */
  async scanColumnsSettled(): Promise<void> {
    this.fillScanColumns(true);
    await this.columnsRun;
  }

  handlers(): Record<string, JobHandler> {
    return indexHandlers(this.parts);
  }

  status(role: IndexStatus['role'], work: IndexStatus['work'], error: IndexStatus['error'] = null): IndexStatus {
    return indexStatus(this.parts, role, work, error);
  }

  /** Tells `listener` whenever the index changed (documents, vectors, models, notices). */
  onChange(listener: () => void): () => void {
    return this.parts.feed.on(listener);
  }

  async lexicalSearch(query: string, k: number): Promise<LexicalHit[]> {
    this.reading();
    return this.parts.bm25.search(query, k);
  }

  async vectorSearch(vector: Float32Array, k: number): Promise<VectorHit[]> {
    this.reading();
    const model = this.parts.indexes.serving.model;
    if (!model) return [];
    const hits = model.search(vector, k, this.vectorMode).map((hit) => ({ id: hit.recordId, similarity: hit.similarity }));
    this.fillScanColumns();
    return hits;
  }

  async vectorSearchMany(vectors: readonly Float32Array[], k: number): Promise<VectorHit[][]> {
    this.reading();
    const model = this.parts.indexes.serving.model;
    if (!model) return vectors.map(() => []);
    const lists = model
      .searchMany(vectors, k, this.vectorMode)
      .map((hits) => hits.map((hit) => ({ id: hit.recordId, similarity: hit.similarity })));
    this.fillScanColumns();
    return lists;
  }

  async similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    this.reading();
    return this.parts.indexes.serving.model?.similarity(vector, ids) ?? new Map<string, number>();
  }

  /** Chunks and notes by id as recall reads them, and structural units as last built. */
  async candidates(ids: readonly string[]): Promise<CandidateRecord[]> {
    this.reading();
    const structural = ids.filter((id) => STRUCTURE_ID.test(id));
    const hint = (id: string) => this.parts.catalog.get(id);
    if (structural.length === 0) return readCandidates(this.parts.vault, ids, hint);
    return [
      ...(await readCandidates(
        this.parts.vault,
        ids.filter((id) => !STRUCTURE_ID.test(id)),
        hint,
      )),
      ...this.structure.get(structural),
    ];
  }

  /** The serving embedder (queries are embedded with its query prefix). */
  servingEmbedder(): Promise<LoadedEmbedder> {
    return this.parts.embedders.get(this.parts.indexes.serving.choice);
  }

  /** The serving embedder's vector of a query. */
  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await (await this.servingEmbedder()).embedQueries([text]);
    return vector!;
  }

  /** What the entity graph links to `name` (IndexApi.entityLinks), with the triples about it (its own first). */
  async entityLinks(name: string, limit = 50): Promise<EntityLinks | null> {
    const graph = this.parts.graph;
    const entity = graph.entity(name.trim());
    if (!entity) return null;
    const items = await this.candidates(graph.documentsOf(entity.id).sort().slice(0, limit));
    const facts = (await triplesAbout(this.parts.vault.db, [entity.id]))
      .sort((a, b) => Number(b.subject === entity.id) - Number(a.subject === entity.id) || (a.id < b.id ? -1 : 1))
      .slice(0, FACTS_SHOWN)
      .map((t) => ({ noteId: t.noteId, subject: t.subjectText, relation: t.relation, object: t.object, negated: t.negated }));
    return { entity, items, neighbours: graph.neighbours(entity.id, 12), facts };
  }

  /**
   * Recall's triple list (services/index/triples.ts): the triples about the prompt's entities that
   * say what it asks, as the documents holding their sources (a kept note is its own document; a
   * candidate's is the chunk of the message it was extracted from), best first.
   */
  async tripleHits(prompt: string, k: number): Promise<{ id: string; score: number; line: string }[]> {
    const top = await triplesFor(this.parts.vault.db, prompt, 2 * k);
    if (top.length === 0) return [];
    const messageIds = [...new Set(top.map((s) => s.triple.messageId).filter((id): id is string => id !== null))];
    // A message's chunk is usually `<message id>#0`; a short turn merged into the chunk before it is
    // found by the chunks' message index (keys only).
    const chunkOf = new Map<string, string>();
    const merged: string[] = [];
    for (const id of messageIds) {
      if (this.parts.catalog.has(`${id}#0`)) chunkOf.set(id, `${id}#0`);
      else merged.push(id);
    }
    const holders = await Promise.all(merged.map((id) => this.parts.vault.db.chunks.where('messageIds').equals(id).primaryKeys()));
    merged.forEach((id, i) => {
      const chunk = holders[i]!.map(String)
        .sort()
        .find((c) => this.parts.catalog.has(c));
      if (chunk) chunkOf.set(id, chunk);
    });
    const hits = new Map<string, { id: string; score: number; line: string }>();
    for (const { triple, score } of top) {
      const id = this.parts.catalog.has(triple.noteId) ? triple.noteId : triple.messageId ? chunkOf.get(triple.messageId) : undefined;
      if (id && !hits.has(id)) hits.set(id, { id, score, line: tripleLine(triple) });
    }
    return [...hits.values()].slice(0, k);
  }

  /** Full-text search over conversations (IndexApi.searchConversations). */
  searchConversations(request: ConversationSearchRequest): Promise<ConversationSearchResult> {
    return searchConversations(this.parts.vault, this.parts.bm25, request);
  }

  /** The entities named in the most conversations (IndexApi.topEntities). */
  topEntities(limit = 12): TopEntity[] {
    return this.parts.graph.top(limit);
  }

  /** This index as the recall service reads it. */
  recallSources(): RecallSources {
    return {
      lexical: { search: (query, k) => this.lexicalSearch(query, k), explain: async (query, ids) => this.parts.bm25.explain(query, ids) },
      vector: {
        search: (vector, k) => this.vectorSearch(vector, k),
        searchMany: (vectors, k) => this.vectorSearchMany(vectors, k),
        similarity: (vector, ids) => this.similarity(vector, ids),
      },
      store: { get: (ids) => this.candidates(ids) },
      graph: {
        walk: async (prompt, k) =>
          this.parts.graph.walk(
            linkEntities(prompt).map((m) => m.key),
            k,
          ),
        hubs: () => ({ p90: this.parts.graph.p90(), entitiesOf: (id) => this.parts.graph.entitiesOf(id) }),
      },
      triples: { about: (prompt, k) => this.tripleHits(prompt, k) },
      structure: {
        search: async (prompt, k) => (await this.structure.index()).search(prompt, k),
      },
      hints: { search: async (query, k) => this.hints.search(query, k) },
      scoped: {
        notes: (categories, limit) => scopedNotes(this.parts.vault, categories, limit),
        sessions: (limit) => newestSessionUnits(this.parts.vault.db, limit),
      },
      queryEmbedder: async () => {
        const embedder = await this.servingEmbedder();
        return { id: embedder.id, kind: embedder.kind, embed: (texts, options) => embedder.embedQueries(texts, options) };
      },
      size: () => this.parts.catalog.size,
      onChange: (listener) => this.parts.catalog.watch(listener),
    };
  }

  checkHealth(): Promise<HealthReport | null> {
    return runHealthCheck(this.parts);
  }

  async queueEmbedding(): Promise<string> {
    const job = await this.parts.vault.jobs.enqueue(indexEmbedJob(), this.parts.now());
    this.onQueued();
    return job.id;
  }

  /**
   * Starts building `choice`'s index in the background (downloading the model when needed); the
   * current index serves until it is complete. Choosing the serving embedder cancels a switch.
   */
  async useEmbedder(choice: EmbedderChoice): Promise<void> {
    const parts = this.parts;
    if (parts.readOnly) fail('worker/unavailable', 'The index is managed by another tab; change the model there.');
    await parts.lock.run(async () => {
      if (parts.indexes.isTarget(choice)) return;
      const wanted = parts.indexes.isServing(choice) ? null : { choice, model: await openModel(parts, choice) };
      const replaced = await parts.indexes.setTarget(wanted);
      if (replaced?.model) {
        await replaced.model.discard();
        await parts.embedders.unload(replaced.choice);
      }
    });
    parts.feed.emit();
    if (!parts.indexes.target) return;
    void parts.embedders.get(choice).catch(() => undefined);
    await this.queueEmbedding();
    // A model whose vectors are all stored already (switching back) takes over at once.
    const promoted = await promoteIfComplete(parts).catch(() => false);
    if (promoted) await persist(parts);
  }

  async models(): Promise<ModelEntry[]> {
    const parts = this.parts;
    const library = parts.deps.library;
    const choices: EmbedderChoice[] = [LEXICAL, ...((await library?.known()) ?? [])];
    for (const slot of [parts.indexes.serving, parts.indexes.target]) {
      if (slot && !choices.some((c) => choiceId(c) === choiceId(slot.choice))) choices.push(slot.choice);
    }
    return Promise.all(
      choices.map(async (choice) => {
        const size = choice.kind === 'lexical' || !library ? { bytes: 0, files: 0 } : await library.size(choice);
        return {
          embedderId: choiceId(choice),
          choice,
          label: choice.kind === 'lexical' ? 'Lexical fallback (built in)' : embedderLabel(choice),
          cached: choice.kind === 'lexical' || size.files > 0,
          bytes: choice.kind === 'lexical' ? null : size.bytes,
          files: size.files,
          serving: parts.indexes.isServing(choice),
          target: parts.indexes.isTarget(choice),
        };
      }),
    );
  }

  /** Deletes a model's cached files; if it serves, the lexical index is built to take over. */
  async deleteModel(embedderId: string): Promise<void> {
    const entry = (await this.models()).find((m) => m.embedderId === embedderId);
    if (!entry || entry.choice.kind === 'lexical') fail('input/invalid', 'That model is not in the model list.');
    await this.parts.deps.library?.remove(entry.choice);
    if (entry.target) await this.useEmbedder(this.parts.indexes.serving.choice);
    if (entry.serving) await this.useEmbedder(LEXICAL);
    this.parts.feed.emit();
  }

  async importModelFiles(files: ModelFileInput[], overrides?: Partial<EmbeddingModelSpec>): Promise<ModelEntry> {
    const library = this.parts.deps.library;
    if (!library) fail('embed/unavailable', 'Model files can only be stored in the browser.');
    const choice = await library.importFiles(files, overrides);
    const entry = (await this.models()).find((m) => m.embedderId === choiceId(choice));
    return entry!;
  }
}
