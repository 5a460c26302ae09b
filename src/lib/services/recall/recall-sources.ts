/**
 * What the recall service reads: the index's searchers, the store of retrievable records and the
 * embedder of queries. The index service provides them (IndexService.recallSources); nothing else
 * does, so the Recall screen, the CLI, `eval locomo` and the agent tools read the same index.
 */
import type { Embedder } from '../../core/api/embedder';
import type {
  CandidateStore,
  GraphSearcher,
  HintSearcher,
  LexicalSearcher,
  ScopedSource,
  StructureSearcher,
  TripleSearcher,
  VectorSearcher,
} from '../../core/recall/ports';

export type QueryEmbedder = Pick<Embedder, 'id' | 'kind' | 'embed'>;

export interface RecallSources {
  lexical: LexicalSearcher;
  vector: VectorSearcher;
  store: CandidateStore;
  /** The entity graph (walk and hub counts); absent: recall runs without it. */
  graph?: GraphSearcher;
  /** The extracted units' triples; absent: recall runs without them. */
  triples?: TripleSearcher;
  /** The hints' keyword index; absent: recall runs without hints. */
  hints?: HintSearcher;
  /** The GLOBAL view's structural units; absent: GLOBAL prompts read chunks and notes only. */
  structure?: StructureSearcher;
  /** What a prompt with no subject lists ("What did I decide?"); absent: such prompts are recalled like any other. */
  scoped?: ScopedSource;
  /** The serving embedder, embedding queries (with its query prefix). */
  queryEmbedder(): Promise<QueryEmbedder>;
  /** Indexed documents now (0: nothing to search yet). */
  size(): number;
  /**
   * Tells `listener` which documents were written (changed or removed); null: documents were
   * added or everything was reloaded. Returns the unsubscribe function. (Prefetch invalidates by it.)
   */
  onChange?(listener: (ids: readonly string[] | null) => void): () => void;
}
