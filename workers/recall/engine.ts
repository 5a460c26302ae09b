/**
 * The in-process recall engine: the core read path (`recall`) over the real index pieces, BM25+
 * over each unit's index text, the embedder's vectors in exact or HNSW search, and the unit
 * records as the candidate store; then budget assembly with the read-time sanitizer. No worker
 * globals: the CLI runs it in Node and the index worker wraps it in a browser worker.
 */
import type { Embedder } from '../../src/lib/core/api/embedder';
import type { Llm } from '../../src/lib/core/api/llm';
import type { Bm25Options } from '../../src/lib/core/index/bm25';
import { err, ok, vaultError, VaultFailure, type Result } from '../../src/lib/core/errors';
import { assemblePackage, type AssembledPackage } from '../../src/lib/core/recall/budget';
import { DEFAULT_TARGET_ID, resolveTarget } from '../../src/lib/core/recall/model-windows';
import type { PackageFormat } from '../../src/lib/core/recall/package-format';
import type { CandidateRecord, CandidateStore } from '../../src/lib/core/recall/ports';
import { recall, type RecallInput, type RecallOptions } from '../../src/lib/core/recall/recall';
import type { RetrieveDeps } from '../../src/lib/core/recall/retrieve';
import type { RecallResult } from '../../src/lib/core/recall/types';
import type { HnswParams } from '../../src/lib/store/vector-index';
import { Bm25Searcher } from './lexical-searcher';
import { readSanitizer } from '../../src/lib/services/recall/read-sanitizer';
import type { IndexUnit } from './units';
import { ExactVectors, type VectorBackend } from './vector-backend';

/** 'auto' picks exact search up to AUTO_HNSW_ABOVE units (by `capacity`), HNSW above. */
export type VectorChoice = 'exact' | 'hnsw' | 'auto';

/**
 * Exact search costs n x dims multiply-adds per variant (up to four a query): about 2 ms per variant
 * at 5,000 units of 384 dims here, so beyond that HNSW keeps a query well inside its 50 ms budget.
 */
export const AUTO_HNSW_ABOVE = 5_000;

export interface EngineOptions {
  embedder: Embedder;
  /** 'exact' (default) for small vaults, 'hnsw' for large ones, 'auto', or a backend of the caller's. */
  vectors?: VectorChoice | VectorBackend;
  bm25?: Partial<Bm25Options>;
  hnsw?: Partial<HnswParams>;
  /** Expected number of units (sizes the vector store up front). */
  capacity?: number;
}

export interface PackageOptions {
  /** A model preset id (model-windows.ts) or a custom window in tokens. Default gpt-4o. */
  target?: string | number;
  fraction?: number;
  format?: PackageFormat;
}

export interface EngineRecallOptions extends RecallOptions {
  llm?: Llm | null;
  /** Wall-clock ms for recency; default Date.now(). */
  now?: number;
  clock?: () => number;
  package?: PackageOptions;
}

export interface EngineRecall {
  result: RecallResult;
  /** The context package of the kept items (empty text when the vault holds nothing on this). */
  package: AssembledPackage;
}

const EMBED_BATCH = 256;

class MapStore implements CandidateStore {
  readonly byId = new Map<string, CandidateRecord>();
  async get(ids: readonly string[]): Promise<CandidateRecord[]> {
    return ids.flatMap((id) => this.byId.get(id) ?? []);
  }
}

export class RecallEngine {
  private readonly store = new MapStore();

  private constructor(
    readonly embedder: Embedder,
    readonly lexical: Bm25Searcher,
    readonly vectors: VectorBackend,
  ) {}

  static async create(options: EngineOptions): Promise<RecallEngine> {
    const { embedder } = options;
    let vectors: VectorBackend;
    const choice = options.vectors === 'auto' ? ((options.capacity ?? 0) > AUTO_HNSW_ABOVE ? 'hnsw' : 'exact') : options.vectors;
    if (choice === 'hnsw') {
      // Loaded on demand: an engine with exact search never loads hnswlib-wasm.
      const { createHnswVectors } = await import('./hnsw-vectors');
      vectors = await createHnswVectors({
        modelId: embedder.id,
        dims: embedder.dims,
        ...(options.capacity ? { capacity: options.capacity } : {}),
        ...(options.hnsw ? { params: options.hnsw } : {}),
      });
    } else if (choice === undefined || choice === 'exact') {
      vectors = new ExactVectors(embedder.dims, options.capacity ?? 1024);
    } else vectors = choice;
    return new RecallEngine(embedder, new Bm25Searcher(options.bm25), vectors);
  }

  /** Retrievable units. */
  get size(): number {
    return this.store.byId.size;
  }

  /**
   * Indexes units (a unit already present is replaced), embedding them in batches, or taking the
   * caller's `vectors` (one per unit, made by this engine's embedder from `embedText`), e.g. the
   * vectors the index worker already stored.
   */
  async add(units: readonly IndexUnit[], options: { signal?: AbortSignal; vectors?: readonly Float32Array[] } = {}): Promise<void> {
    const { vectors: given, ...embedOptions } = options;
    if (given && given.length !== units.length) {
      throw new VaultFailure(vaultError('index/failed', `Got ${given.length} vectors for ${units.length} units.`));
    }
    for (let start = 0; start < units.length; start += EMBED_BATCH) {
      const batch = units.slice(start, start + EMBED_BATCH);
      const vectors = given
        ? given.slice(start, start + EMBED_BATCH)
        : await this.embedder.embed(
            batch.map((u) => u.embedText),
            embedOptions,
          );
      for (const unit of batch) {
        this.store.byId.set(unit.record.id, unit.record);
        this.lexical.add(unit.record.id, unit.indexText);
      }
      this.vectors.add(batch.map((u, i) => ({ id: u.record.id, contentHash: u.record.contentHash, vector: vectors[i]! })));
    }
  }

  remove(ids: readonly string[]): number {
    let removed = 0;
    for (const id of ids) {
      if (!this.store.byId.delete(id)) continue;
      this.lexical.remove(id);
      this.vectors.remove(id);
      removed++;
    }
    return removed;
  }

  record(id: string): CandidateRecord | undefined {
    return this.store.byId.get(id);
  }

  /** The core's ports over this engine's indexes. */
  deps(): RetrieveDeps {
    return { lexical: this.lexical, vector: this.vectors, embedder: this.embedder, store: this.store };
  }

  /** The read path and its package: kept items assembled within the target's budget, sanitized. */
  async recall(input: RecallInput, options: EngineRecallOptions = {}): Promise<Result<EngineRecall>> {
    const { llm, now, clock, package: pkg, ...recallOptions } = options;
    const target = resolveTarget(pkg?.target ?? DEFAULT_TARGET_ID);
    if (!target) return err(vaultError('input/invalid', `Unknown target model "${String(pkg?.target)}".`));
    const outcome = await recall(
      input,
      { ...this.deps(), llm: llm ?? null, now: now ?? Date.now(), ...(clock ? { clock } : {}) },
      recallOptions,
    );
    if (!outcome.ok) return outcome;
    const assembled = assemblePackage(outcome.value.items, {
      window: target.window,
      ...(pkg?.fraction !== undefined ? { fraction: pkg.fraction } : {}),
      format: pkg?.format ?? 'markdown',
      sanitize: readSanitizer,
    });
    return ok({ result: outcome.value, package: assembled });
  }
}
