/** The shapes the read path produces: variants, candidates with their signals, drops, the result. */
import type { BreakerStatus } from '../breaker/circuit-breaker';
import type { VaultError } from '../errors';
import type { CandidateRecord } from './ports';
import type { DampeningTrace } from './dampening';
import type { IntentClassification } from './intent-class';
import type { RerankStatus } from './rerank';
import type { StageTraces } from './stage-trace';
import type { FocusTrace } from './session-focus';
import type { StructureTrace } from './structure-stage';
import type { SubjectCheck } from './subject-check';
import type { RelevanceStatus } from './term-coverage';

/** The four angles a prompt is searched from (DESIGN, read path 1). */
export type VariantKind = 'concept' | 'method' | 'continuity' | 'authority';

export interface QueryVariant {
  kind: VariantKind;
  text: string;
  /** Weight of this variant's lists in the fusion (1 unless told; see decompose.ts). */
  weight?: number;
}

export interface Decomposition {
  variants: QueryVariant[];
  source: 'llm' | 'deterministic';
  /** Why the LLM decomposer was not used or failed; null when it ran or was not asked for. */
  fallbackReason: string | null;
}

/** The prompt's intent at the subject-domain altitude: shown to the person, editable, judged against. */
export interface IntentStatement {
  text: string;
  source: 'given' | 'llm' | 'deterministic';
  fallbackReason: string | null;
}

/** What retrieval knows about one candidate, kept for display and evaluation. */
/** What the hints did in one recall: their weight, and how many package items a hint ranked above their own text (each item's signals say which). */
export interface HintTrace {
  weight: number;
  lifted: number;
}

export interface RetrievalSignals {
  /** Best (lowest, 1-based) BM25 rank over the variants; null when BM25 did not return it. */
  bm25Rank: number | null;
  bm25Score: number | null;
  /** Best (lowest, 1-based) vector rank over the variants; null when vector search did not return it. */
  vectorRank: number | null;
  /** Highest exact cosine similarity to any variant; null when the record has no vector. */
  vectorSimilarity: number | null;
  /** Reciprocal-rank-fusion score summed over every ranked list of every variant. */
  rrf: number;
  /** Variants whose lists contained the candidate. */
  variants: VariantKind[];
  /**
   * Share (0..1) of the prompt's informative vocabulary, weighted by the vault's idf, that the
   * candidate's keyword document holds (term-coverage.ts); absent when it was not judged.
   */
  coverage?: number;
  /** Rank (1-based) in the entity graph's walk; absent when the walk did not reach it. */
  graphRank?: number;
  /**
   * Rank (1-based) in the triple list and the triple that put it there ("Caroline · researched ·
   * adoption agencies"); absent when no triple about the prompt's entities did.
   */
  triple?: { rank: number; line: string };
  /**
   * Best (lowest, 1-based) rank in the hint lists and the prompt's index terms (stemmed) that hint
   * holds; absent when no hint did.
   */
  hint?: { rank: number; terms: readonly string[] };
}

export interface Candidate {
  record: CandidateRecord;
  signals: RetrievalSignals;
}

export interface ScoreBreakdown {
  /**
   * The fused-rank weight in (0, 1]: 10 / (10 + rank), rank 0-based (scoring.ts). Not a similarity:
   * it says how high the fusion placed the candidate. (The key keeps its first name so recall JSON
   * stays stable; the prompt-candidate similarity is `signals.coverage` and `signals.vectorSimilarity`.)
   */
  relevance: number;
  /** Provenance weight of the tier (engram 1.0, resource 0.8, chat 0.6, web 0.1). */
  provenance: number;
  /** Recency factor in 0..1 (1 for tiers that do not decay). */
  recency: number;
  /** relevance x provenance x recency, times the dampening factors when any applied. */
  score: number;
  /** The post-fusion multipliers that applied (dampening.ts); absent when none did. */
  dampening?: { gravity?: number; hub?: number; resolution?: number; subject?: number };
}

export interface ScoredCandidate extends Candidate {
  scores: ScoreBreakdown;
  /** The fit-gate's one-line reason for keeping it; null when the gate did not judge it. */
  gateReason: string | null;
  /** Set when the reranker scored it: its raw score, the blend, and the normalized first-stage score. */
  rerank?: { score: number; blended: number; firstStage: number };
}

/** `validity`: a note whose stated horizon ("this week", "until May 3") has passed (core/curate/validity.ts). */
export type FunnelStage = 'width' | 'floor' | 'relevance' | 'fit-gate' | 'dedup' | 'token-cap' | 'validity';

export interface DroppedCandidate {
  candidate: ScoredCandidate;
  stage: FunnelStage;
  reason: string;
}

export type GateSkipReason = 'disabled' | 'no-llm' | 'no-candidates' | 'timeout' | 'invalid-output' | 'error' | 'breaker-open';

export type GateStatus =
  | { ran: true; llmId: string; kept: number; dropped: number; unjudged: number; ms: number }
  | { ran: false; reason: GateSkipReason; message: string; error?: VaultError; breaker?: BreakerStatus };

export interface FloorStatus {
  value: number;
  embedderId: string;
  /** Where the value comes from (calibration table entry or an explicit override). */
  derivation: string;
  /**
   * How many candidates under the floor were kept after all, because BM25 found them and they hold
   * the prompt's words (funnel.ts, FLOOR_SPARE_RATIO); absent when none was.
   */
  spared?: number;
}

export interface TokenCapStatus {
  cap: number;
  fired: boolean;
  tokensBefore: number;
  dropped: number;
}

/** "The vault holds nothing on this": no padding, only the closest misses and why they missed. */
export interface HoldsNothing {
  emptyAt: 'retrieval' | 'floor' | 'relevance' | 'subject' | 'fit-gate' | 'validity';
  message: string;
  closestMisses: DroppedCandidate[];
}

/** One read to write back (batched, non-blocking) so reading a note or a chunk extends its life. */
export interface AccessWrite {
  id: string;
  kind: 'note' | 'chunk';
  at: number;
}

/** A result served from the prefetch cache: what it was computed for, and what that saved. */
export interface PrefetchMark {
  hit: true;
  /** The prompt it was computed for (the guess; same key as the prompt asked). */
  computedFor: string;
  source: string;
  reason: string;
  ageMs: number;
  /** How long computing it took in the background. */
  savedMs: number;
}

export interface RecallTimings {
  decomposeMs: number;
  retrieveMs: number;
  gateMs: number;
  rerankMs: number;
  totalMs: number;
}

export interface ScopeTrace {
  kind: 'notes' | 'sessions';
  /** "your decisions", "your conversations". */
  label: string;
  categories: string[];
  listed: number;
}

export interface RecallResult {
  prompt: string;
  intent: IntentStatement;
  decomposition: Decomposition;
  /** false: the funnel switch is off and `items` is the plain hybrid ranking. */
  funnel: boolean;
  /** Kept candidates in final order. */
  items: ScoredCandidate[];
  /** Every candidate the funnel dropped, with its stage and reason, in the order they were dropped. */
  dropped: DroppedCandidate[];
  gate: GateStatus;
  /** The second stage: reranked, or why not (the attention gate's rule, the breaker, no reranker). */
  rerank: RerankStatus;
  floor: FloorStatus | null;
  tokenCap: TokenCapStatus | null;
  holdsNothing: HoldsNothing | null;
  /** The model-free relevance judgment (term-coverage.ts); null when it did not run. */
  relevance?: RelevanceStatus | null;
  /** The intent class, its retrieval mode and why it was chosen (intent-class.ts); null when routing is off. */
  intentClass?: IntentClassification | null;
  /** What post-fusion dampening did (dampening.ts); absent when it was switched off. */
  dampening?: DampeningTrace | null;
  /** Refusal with evidence (subject-check.ts): who the prompt names and who the matches are about. */
  subject?: SubjectCheck | null;
  /** Session focus (session-focus.ts): the conversations a GLOBAL prompt's package kept and left out; null when it did not run. */
  focus?: FocusTrace | null;
  /** The GLOBAL view (structure-stage.ts): whether structural units were searched and which were added. */
  structure?: StructureTrace | null;
  /** What the hints did (hints.ts); null when they were not searched. */
  hints?: HintTrace | null;
  /**
   * Set when the prompt named no subject (prompt-scope.ts) and its items are a list, newest first:
   * what was listed and how many; absent or null for every other prompt.
   */
  scope?: ScopeTrace | null;
  accessWrites: AccessWrite[];
  /** What each model stage did in this recall (called, failed, bypassed, skipped) and its breaker. */
  stages: StageTraces;
  /** Set when the result came from the prefetch cache (computed in the background for a guess). */
  prefetch?: PrefetchMark | null;
  timings: RecallTimings;
}
