/**
 * The read path in one call: intent + decomposition -> hybrid retrieval -> scoring -> funnel ->
 * access write-back list. Pure apart from its dependencies (searchers, store, embedder, LLM, clock),
 * which the index worker supplies. Bad input and failing dependencies come back as a Result.
 */
import type { Llm } from '../api/llm';
import type { StageBreakers } from '../breaker/circuit-breaker';
import { err, ok, toVaultError, vaultError, type Result } from '../errors';
import type { AttentionOptions } from './attention-gate';
import { DEFAULT_CORE_COUNT } from './budget';
import { dampen, DEFAULT_DAMPENING, type DampeningOptions } from './dampening';
import type { CandidateRecord, GraphSearcher, ScopedSource, StructureSearcher, TripleSearcher } from './ports';
import { promptScope, type PromptScope } from './prompt-scope';
import { decompose } from './decompose';
import { runFunnel, DEFAULT_FUNNEL_WIDTH, MAX_WIDTH, type FunnelOptions } from './funnel';
import { deriveIntent } from './intent';
import {
  archetypeVectors,
  classifyIntent,
  INTENT_PROFILES,
  type ArchetypeVectors,
  type IntentClass,
  type IntentClassification,
  type IntentSample,
} from './intent-class';
import {
  retrieve,
  searcherWeightsFor,
  DEFAULT_PER_LIST_K,
  HINT_WEIGHT,
  type ExtraList,
  type RetrieveDeps,
  type RetrievalLists,
  type SearcherWeights,
} from './retrieve';
import { accessWrites, scoreAll } from './scoring';
import type { Reranker } from './rerank';
import { floorFor } from './similarity-floor';
import { breakersOrFresh, StageRecorder } from './stage-trace';
import { focusOnSessions, SESSION_FOCUS } from './session-focus';
import { DEFAULT_STRUCTURE, withStructure, type StructureOptions } from './structure-stage';
import { aboutNamed, DEFAULT_SUBJECT_CHECK, type SubjectCheckOptions } from './subject-check';
import { DEFAULT_RELEVANCE, termCoverage, type RelevanceOptions, type TermCoverage } from './term-coverage';
import { unframe } from './text-features';
import type { TokenCounter } from '../text/token-count';
import type { Candidate, GateStatus, HintTrace, RecallResult } from './types';
import type { RerankStatus } from './rerank';

export interface RecallDeps extends RetrieveDeps {
  /** The LLM for decomposition, intent and the fit-gate; null or absent: every stage falls back. */
  llm?: Llm | null;
  /** Wall-clock time (ms since epoch) for recency and access write-back. */
  now: number;
  /** Monotonic clock in ms for timings (performance.now in the app). */
  clock?: () => number;
  /** The cross-encoder of the second stage; null or absent: the first-stage order stands. */
  reranker?: Reranker | null;
  /** Why there is none when one was chosen (still loading, failed to load), for the trace. */
  rerankerUnavailable?: string | null;
  /** One circuit breaker per model stage, kept across recalls (recall-service.ts). */
  breakers?: StageBreakers;
  /** Wall-clock time for the breakers' "retries in" (default Date.now). */
  wallClock?: () => number;
  /** The entity graph (walk, hub counts); absent: no graph list and no hub dampening. */
  graph?: GraphSearcher | null;
  /** The extracted units' triples; absent: no triple list. */
  triples?: TripleSearcher | null;
  /** The person's recent intents (the personalization prior); absent: no prior. */
  intentHistory?: () => Promise<IntentSample[]>;
  /** The GLOBAL view's units (summaries, thread maps, communities); absent: GLOBAL prompts read chunks and notes only. */
  structure?: StructureSearcher | null;
  /** What a prompt with no subject lists (prompt-scope.ts); absent: such a prompt is recalled like any other. */
  scoped?: ScopedSource | null;
}

export interface RecallInput {
  prompt: string;
  /** The intent the person saw and maybe edited; derived when absent. */
  intent?: string | null;
  /** The intent class the person chose on the screen; classified when absent. */
  intentClass?: IntentClass | null;
}

export interface RecallOptions {
  /** The funnel switch (on by default). */
  funnel?: boolean;
  /** Minimum funnel width (it grows for short items, see funnel.ts). */
  width?: number;
  minWidthTokens?: number;
  maxWidth?: number;
  perListK?: number;
  /** Fused candidates read from the store; defaults to the widest funnel plus 10 near misses to show. */
  limit?: number;
  /** Overrides the calibrated similarity floor. */
  floor?: number | null;
  /** The model-free relevance stage (term coverage): false switches it off; values override the defaults. */
  relevance?: Partial<RelevanceOptions> | false;
  /** Post-fusion dampening (dampening.ts): false switches every stage off; values switch single stages. */
  dampening?: Partial<DampeningOptions> | false;
  /** Refusal with evidence (subject-check.ts): false switches it off; values override the defaults. */
  subject?: Partial<SubjectCheckOptions> | false;
  tokenCap?: number;
  gateTimeoutMs?: number;
  /** The reranker switch (default on when a reranker is given). */
  rerank?: boolean;
  rerankTimeoutMs?: number;
  attention?: AttentionOptions;
  /**
   * Weight of the entity graph's walk in the fusion (GRAPH_WEIGHT by default); 0 or false leaves it
   * out. Only LOCAL and HYBRID intents walk the graph.
   */
  graph?: number | false;
  /**
   * Weight of the triple list in the fusion (TRIPLE_WEIGHT by default); 0 or false leaves it out.
   * Only LOCAL and HYBRID intents read the triples.
   */
  triples?: number | false;
  /**
   * The hints (hints.ts, retrieve.ts): off unless asked (measured: services/recall/README.md, "Hints");
   * true searches them at HINT_WEIGHT, a number at that weight. With the funnel off they are never searched.
   */
  hints?: boolean | number;
  /** Session focus for GLOBAL prompts (session-focus.ts): the ratio (SESSION_FOCUS by default); false switches it off. */
  focus?: number | false;
  /** The GLOBAL view's structural items (structure-stage.ts): false adds none; values override the defaults. */
  structure?: Partial<StructureOptions> | false;
  /** false: a prompt with no subject ("What did I decide?") is recalled like any other, not listed. */
  scope?: boolean;
  /** Intent routing (intent-class.ts): false classifies nothing and keeps the default weights. */
  intentRouting?: boolean;
  /** Ask the LLM for variants / intent (when one is given). Default true. */
  llmDecompose?: boolean;
  llmIntent?: boolean;
  gate?: boolean;
  lists?: RetrievalLists;
  /** Fusion weights of the BM25 and vector lists; default by embedder kind (retrieve.ts). */
  weights?: SearcherWeights;
  countTokens?: TokenCounter;
  /**
   * Recency decay of the conversational tiers (default true). Off for an archive read as a whole,
   * where every session is asked about alike (the LoCoMo evaluation); see scoring.ts.
   */
  recency?: boolean;
  signal?: AbortSignal;
}

/** What the hints did: their weight, and how many package items a hint ranked above their own text. */
function hintTrace(weight: number, items: readonly Candidate[]): HintTrace | null {
  if (weight <= 0) return null;
  const lifted = items.filter((c) => c.signals.hint && (c.signals.bm25Rank === null || c.signals.hint.rank < c.signals.bm25Rank));
  return { weight, lifted: lifted.length };
}

const cancelled = () => vaultError('recall/cancelled', 'A newer query replaced this one.');

function funnelOptions(
  deps: RecallDeps,
  options: RecallOptions,
  common: { signal?: AbortSignal; clock: () => number },
  stages: StageRecorder,
  prompt: string,
): FunnelOptions & { maxWidth: number } {
  const width = options.width ?? DEFAULT_FUNNEL_WIDTH;
  return {
    enabled: options.funnel !== false,
    width,
    maxWidth: Math.max(width, options.maxWidth ?? MAX_WIDTH),
    ...(options.minWidthTokens !== undefined ? { minWidthTokens: options.minWidthTokens } : {}),
    floor: floorFor(deps.embedder, options.floor),
    gate: {
      enabled: options.gate !== false,
      llm: deps.llm ?? null,
      ...(options.gateTimeoutMs ? { timeoutMs: options.gateTimeoutMs } : {}),
      ...common,
      guard: stages.guard('fit-gate'),
    },
    rerank: {
      enabled: options.rerank !== false,
      reranker: deps.reranker ?? null,
      unavailable: deps.rerankerUnavailable ?? null,
      query: prompt,
      ...(options.rerankTimeoutMs ? { timeoutMs: options.rerankTimeoutMs } : {}),
      ...(options.attention ? { attention: options.attention } : {}),
      ...common,
      guard: stages.guard('rerank'),
    },
    ...(options.tokenCap ? { tokenCap: options.tokenCap } : {}),
    ...(options.countTokens ? { countTokens: options.countTokens } : {}),
  };
}

/**
 * The entity graph's list: where a personalized PageRank walk from the prompt's entities rests.
 * Measured on LoCoMo dev (funnel, recall@10 / @1,000 tokens; recall README, ablation): weight 0
 * 0.746 / 0.836, 0.1 0.743 / 0.835, 0.3 0.729 / 0.832, 1 0.643 / 0.816. Every weight above 0 cost
 * recall (in LoCoMo every turn links to its speaker, so a walk from a person spreads over all their
 * turns): off by default; `graph: <weight>` switches it on.
 */
export const GRAPH_WEIGHT = 0;

/**
 * The weight of an entity list (the graph's walk, the triples) for this prompt, and how many ids it
 * may give; null when it is off, its source is absent, or the prompt is GLOBAL (read as a whole).
 */
function entityListPlan(
  setting: number | false | undefined,
  fallback: number,
  present: boolean,
  options: RecallOptions,
  intent: IntentClassification | null,
  k: number,
): { weight: number; k: number } | null {
  const weight = setting === false ? 0 : (setting ?? fallback);
  if (!present || weight <= 0 || (intent && intent.mode === 'GLOBAL')) return null;
  return { weight, k: Math.max(k, options.perListK ?? DEFAULT_PER_LIST_K) };
}

async function graphList(
  prompt: string,
  deps: RecallDeps,
  options: RecallOptions,
  intent: IntentClassification | null,
  k: number,
): Promise<ExtraList | null> {
  const plan = entityListPlan(options.graph, GRAPH_WEIGHT, Boolean(deps.graph), options, intent, k);
  if (!plan || !deps.graph) return null;
  const hits = await deps.graph.walk(prompt, plan.k);
  return hits.length > 0 ? { ids: hits.map((h) => h.id), weight: plan.weight, kind: 'graph' } : null;
}

/**
 * The triple list: the sources of the extracted units' triples about the prompt's entities that say
 * what it asks (services/index/triples.ts). Measured on LoCoMo dev with the extraction run first
 * (`eval locomo --extract --triples W`, funnel, recall@10 / @1,000 tokens; services/recall/README.md,
 * "Triples"): 0 0.7483 / 0.8358, 0.05 0.7520 / 0.8370, 0.1 0.7529 / 0.8391, 0.2 0.7531 / 0.8418,
 * 0.3 0.7505 / 0.8425, 1 0.7259 / 0.8428. Chosen: the weight with the best recall@10 at which no
 * category falls (0.2 lowers single-hop). A vault with no extracted units has no triples: nothing changes.
 */
export const TRIPLE_WEIGHT = 0.1;

async function tripleList(
  prompt: string,
  deps: RecallDeps,
  options: RecallOptions,
  intent: IntentClassification | null,
  k: number,
): Promise<ExtraList | null> {
  const plan = entityListPlan(options.triples, TRIPLE_WEIGHT, Boolean(deps.triples), options, intent, k);
  if (!plan || !deps.triples) return null;
  const hits = await deps.triples.about(prompt, plan.k);
  return hits.length > 0 ? { ids: hits.map((h) => h.id), lines: hits.map((h) => h.line), weight: plan.weight, kind: 'triples' } : null;
}

const archetypeCache = new Map<string, Promise<ArchetypeVectors>>();

/** The prompt's intent class: rules and archetype vectors fused, the prior, the model when unsure. */
async function routeIntent(
  prompt: string,
  given: IntentClass | null,
  deps: RecallDeps,
  options: RecallOptions,
  common: { signal?: AbortSignal; clock: () => number },
): Promise<IntentClassification> {
  if (given) return classifyIntent(prompt, { given, now: deps.now });
  let archetypes = archetypeCache.get(deps.embedder.id);
  if (!archetypes) {
    archetypes = archetypeVectors(deps.embedder);
    archetypeCache.set(deps.embedder.id, archetypes);
    archetypes.catch(() => archetypeCache.delete(deps.embedder.id));
  }
  const [vectors, centroids, history] = await Promise.all([
    deps.embedder.embed([prompt], common.signal ? { signal: common.signal } : undefined),
    archetypes,
    deps.intentHistory?.() ?? Promise.resolve([]),
  ]);
  return classifyIntent(prompt, {
    queryVector: vectors[0] ?? null,
    archetypes: centroids,
    history,
    now: deps.now,
    llm: options.llmIntent === false ? null : (deps.llm ?? null),
    ...common,
  });
}

/**
 * The fusion weights: explicit ones as given; else the embedder kind's, with the intent's vector
 * boost for a neural embedder (a lexical embedder mostly repeats BM25: a higher weight cost recall
 * on LoCoMo, retrieve.ts).
 */
function weightsFor(deps: RecallDeps, options: RecallOptions, intent: IntentClassification | null): { weights?: SearcherWeights } {
  if (options.weights) return { weights: options.weights };
  const boost = intent ? INTENT_PROFILES[intent.intent].vectorBoost : 1;
  if (deps.embedder.kind !== 'neural' || boost === 1) return {};
  const base = searcherWeightsFor(deps.embedder.kind);
  return { weights: { bm25: base.bm25, vector: base.vector * boost } };
}

/** Term coverage of the candidates (term-coverage.ts); null when the keyword index cannot explain. */
async function judgeRelevance(
  prompt: string,
  candidates: readonly Candidate[],
  deps: RecallDeps,
  options: RecallOptions,
): Promise<TermCoverage | null> {
  if (!deps.lexical.explain || candidates.length === 0 || options.lists === 'vector') return null;
  const explanation = await deps.lexical.explain(
    unframe(prompt),
    candidates.map((c) => c.record.id),
  );
  // The judgment reads the documents' own words only. Counting the prompt's terms a hint holds as the
  // document's was measured and not kept (services/recall/README.md, "Hints").
  return explanation.terms.length > 0 ? termCoverage(explanation) : null;
}

function withCoverage(candidates: readonly Candidate[], judgment: TermCoverage | null): Candidate[] {
  if (!judgment) return [...candidates];
  return candidates.map((c) => {
    const coverage = judgment.coverage.get(c.record.id);
    return coverage === undefined ? c : { ...c, signals: { ...c.signals, coverage } };
  });
}

/** Memories listed for a prompt with no subject, at most this many (the budget cuts the package). */
export const SCOPED_LIMIT = 40;

const NOT_JUDGED = 'the prompt names no subject: its memories are listed, newest first, not judged';

/**
 * A prompt with no subject (prompt-scope.ts) is answered by listing: the notes of its categories or
 * the conversations' session summaries, newest first, scored for provenance and recency like any item
 * but kept in that order. Nothing is refused for lack of a subject; an empty list says what the vault
 * does not hold yet.
 */
async function scopedRecall(
  scope: PromptScope,
  source: ScopedSource,
  now: number,
  options: RecallOptions,
  maxWidth: number,
): Promise<Omit<RecallResult, 'prompt' | 'intent' | 'decomposition' | 'funnel' | 'intentClass' | 'accessWrites' | 'stages' | 'timings'>> {
  const limit = Math.max(maxWidth, SCOPED_LIMIT);
  const records: CandidateRecord[] = scope.kind === 'notes' ? await source.notes(scope.categories, limit) : await source.sessions(limit);
  const candidates: Candidate[] = records.map((record) => ({
    record,
    signals: { bm25Rank: null, bm25Score: null, vectorRank: null, vectorSimilarity: null, rrf: 0, variants: [] },
  }));
  const items = scoreAll(candidates, now, { recency: options.recency !== false });
  const gate: GateStatus = { ran: false, reason: 'disabled', message: NOT_JUDGED };
  const rerank: RerankStatus = { ran: false, reason: 'disabled', message: NOT_JUDGED };
  const what = scope.kind === 'notes' ? scope.label.replace(/^your /u, '') : 'session summaries';
  return {
    items,
    dropped: [],
    gate,
    rerank,
    floor: null,
    tokenCap: null,
    holdsNothing:
      items.length > 0
        ? null
        : {
            emptyAt: 'retrieval',
            message:
              scope.kind === 'notes'
                ? `The vault holds no ${what} yet: extraction files them in the Inbox as conversations are imported, and none was found.`
                : 'The vault holds no session summaries yet: extraction writes one per conversation after an import.',
            closestMisses: [],
          },
    relevance: null,
    subject: null,
    focus: null,
    structure: null,
    hints: null,
    dampening: null,
    scope: { kind: scope.kind, label: scope.label, categories: scope.kind === 'notes' ? [...scope.categories] : [], listed: items.length },
  };
}

export async function recall(input: RecallInput, deps: RecallDeps, options: RecallOptions = {}): Promise<Result<RecallResult>> {
  const prompt = input.prompt.trim();
  if (prompt.length === 0) return err(vaultError('input/invalid', 'Type what you want to recall.'));
  const clock = deps.clock ?? (() => Date.now());
  const t0 = clock();
  const llm = deps.llm ?? null;
  const signal = options.signal;
  const common = { ...(signal ? { signal } : {}), clock };
  const wallClock = deps.wallClock ?? (() => Date.now());
  const stages = new StageRecorder(breakersOrFresh(deps.breakers, wallClock), wallClock);
  const funnel = funnelOptions(deps, options, common, stages, prompt);
  try {
    const [intent, decomposition, intentClass] = await Promise.all([
      deriveIntent(prompt, {
        given: input.intent ?? null,
        llm: options.llmIntent === false ? null : llm,
        ...common,
        guard: stages.guard('intent'),
      }),
      decompose(prompt, { llm: options.llmDecompose === false ? null : llm, ...common, guard: stages.guard('decompose') }),
      options.intentRouting === false ? Promise.resolve(null) : routeIntent(prompt, input.intentClass ?? null, deps, options, common),
    ]);
    const t1 = clock();
    if (signal?.aborted) return err(cancelled());
    const scope = funnel.enabled && options.scope !== false && deps.scoped ? promptScope(prompt) : null;
    if (scope && deps.scoped) {
      const listed = await scopedRecall(scope, deps.scoped, deps.now, options, funnel.maxWidth);
      if (signal?.aborted) return err(cancelled());
      return ok({
        prompt,
        intent,
        decomposition,
        funnel: true,
        ...listed,
        intentClass,
        accessWrites: accessWrites(listed.items, deps.now),
        stages: stages.result({ intent: intent.fallbackReason, decompose: decomposition.fallbackReason, 'fit-gate': null, rerank: null }),
        timings: { decomposeMs: t1 - t0, retrieveMs: clock() - t1, gateMs: 0, rerankMs: 0, totalMs: clock() - t0 },
      });
    }
    const [walked, told] = await Promise.all([
      graphList(prompt, deps, options, intentClass, funnel.maxWidth),
      tripleList(prompt, deps, options, intentClass, funnel.maxWidth),
    ]);
    // The plain fused ranking (funnel off) stays the searchers' own: no hints.
    const hintWeight = !funnel.enabled || !deps.hints || !options.hints ? 0 : options.hints === true ? HINT_WEIGHT : options.hints;
    const retrieval = await retrieve(decomposition.variants, deps, {
      extra: [walked, told].filter((l): l is ExtraList => l !== null),
      hintWeight,
      perListK: Math.max(options.perListK ?? DEFAULT_PER_LIST_K, funnel.maxWidth),
      limit: options.limit ?? funnel.maxWidth + 10,
      lists: options.lists ?? 'hybrid',
      ...weightsFor(deps, options, intentClass),
      ...(signal ? { signal } : {}),
    });
    const judgment = await judgeRelevance(prompt, retrieval.candidates, deps, options);
    const t2 = clock();
    if (signal?.aborted) return err(cancelled());
    const scored = scoreAll(withCoverage(retrieval.candidates, judgment), deps.now, { recency: options.recency !== false });
    const hubs = deps.graph?.hubs() ?? null;
    const dampening = { ...DEFAULT_DAMPENING, ...(options.dampening || {}) };
    const about = options.dampening !== false && dampening.subject && judgment ? aboutNamed(prompt, scored, judgment) : null;
    const damped = options.dampening === false ? null : dampen(scored, dampening, hubs, about);
    const { gateMs, rerankMs, ...outcome } = await runFunnel(damped?.candidates ?? scored, intent.text, {
      ...funnel,
      relevance: judgment && options.relevance !== false ? { judgment, options: { ...DEFAULT_RELEVANCE, ...options.relevance } } : null,
      subject: options.subject === false ? null : { prompt, options: { ...DEFAULT_SUBJECT_CHECK, ...options.subject } },
      // A big-picture prompt is answered from whole sessions (session focus, structural units), not
      // from single turns the floor dropped: the floor spares nothing for it (funnel.ts, FLOOR_SPARE_RATIO).
      ...(intentClass?.mode === 'GLOBAL' ? { floorSpareRatio: null } : {}),
      // The router's class (the person's choice when they made one) picks the reranker's blend.
      rerank: { ...funnel.rerank, intentClass: intentClass?.intent ?? null },
    });
    if (signal?.aborted) return err(cancelled());
    const relevance = { ...DEFAULT_RELEVANCE, ...(options.relevance || {}) };
    const ratio = options.focus === false ? 0 : (options.focus ?? SESSION_FOCUS);
    // With the funnel switched off the items are the plain fused ranking: no focus, no structural items.
    const focused =
      funnel.enabled && intentClass?.mode === 'GLOBAL' && judgment && ratio > 0 && outcome.holdsNothing === null
        ? focusOnSessions(outcome.items, judgment, { ratio, refuseBelow: relevance.refuseBelow })
        : null;
    const structured = !funnel.enabled
      ? { items: [...outcome.items], trace: null }
      : await withStructure({
          prompt: unframe(prompt),
          items: focused?.items ?? outcome.items,
          mode: intentClass?.mode ?? null,
          coreCount: intentClass ? INTENT_PROFILES[intentClass.intent].coreCount : DEFAULT_CORE_COUNT,
          searcher: options.structure === false ? null : (deps.structure ?? null),
          judgment,
          relevance,
          refused: outcome.holdsNothing !== null,
          options: { ...DEFAULT_STRUCTURE, ...(options.structure || {}) },
        });
    if (signal?.aborted) return err(cancelled());
    return ok({
      prompt,
      intent,
      decomposition,
      funnel: funnel.enabled,
      ...outcome,
      items: structured.items,
      dropped: [...outcome.dropped, ...(focused?.dropped ?? [])],
      focus: focused?.trace ?? null,
      structure: structured.trace,
      hints: hintTrace(hintWeight, structured.items),
      dampening: damped?.trace ?? null,
      intentClass,
      accessWrites: accessWrites(structured.items, deps.now),
      stages: stages.result({
        intent: intent.fallbackReason,
        decompose: decomposition.fallbackReason,
        'fit-gate': outcome.gate.ran ? null : outcome.gate.message,
        rerank: outcome.rerank.ran ? null : outcome.rerank.message,
      }),
      timings: { decomposeMs: t1 - t0, retrieveMs: t2 - t1, gateMs, rerankMs, totalMs: clock() - t0 },
    });
  } catch (thrown) {
    if (signal?.aborted) return err(cancelled());
    return err(toVaultError(thrown, 'recall/failed'));
  }
}
