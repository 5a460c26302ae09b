/**
 * The GLOBAL view at recall (issue 12): a GLOBAL prompt (conceptual, exploratory) or a HYBRID one
 * (across domains, or unclassified) also searches the structural units (session summaries, thread
 * maps, entity communities: structure-units.ts) and gets the best of them as items of their own,
 * packed as Structural (budget.ts): after the Core items for a GLOBAL prompt, after every memory for
 * a HYBRID one. LOCAL prompts (lookups and
 * facts) never search them. A unit is admitted by the same model-free judgment as a chunk: the share
 * of the prompt's informative vocabulary (the vault's own idf, term-coverage.ts) its text holds must
 * reach the relevance stage's refusal line and `ofBest` of the best chunk's. A prompt the vault holds
 * nothing on gets no structural items either: an overview of the wrong subject is padding.
 */
import type { RetrievalMode } from './intent-class';
import type { StructureSearcher } from './ports';
import { unitCoverage, type TermCoverage, type RelevanceOptions } from './term-coverage';
import type { ScoredCandidate } from './types';

export interface StructureOptions {
  /** Structural items a GLOBAL prompt gets at most. */
  global: number;
  /** Structural items a HYBRID prompt gets at most. */
  hybrid: number;
  /** Units read from the structure index before the judgment. */
  searchK: number;
  /**
   * A unit must hold at least this share of the best chunk's coverage of the prompt (and the
   * relevance stage's refusal line); null: the relevance stage's own keepRatio.
   */
  ofBest: number | null;
}

/**
 * `global` and `hybrid` are design values: an overview needs a few, a cross-domain prompt one.
 * `ofBest` was chosen on `engram eval global` (100 big-picture prompts about 50 chats of the labelled
 * corpus, tests/fixtures/recall/global-prompts.json, written blind to the system), the largest mean
 * share of package items drawn from the prompt's chat, ties to the fewest tokens (structural items
 * off: 36.4 %, 2,431 tokens; measured before session focus and the big-picture routing rules):
 *   ofBest                      0.2     0.4     0.5     0.6     0.7     0.8     1.0
 *   share from the chat         37.3 %  37.3 %  37.4 %  37.4 %  37.4 %  37.3 %  36.9 %
 *   mean package tokens         2838    2818    2774    2703    2649    2606    2532
 *   structural items per ask    1.23    1.17    1.04    0.82    0.66    0.53    0.30
 *   of them from the chat       52.8 %  53.8 %  57.7 %  67.1 %  75.8 %  79.2 %  80.0 %
 */
export const DEFAULT_STRUCTURE: StructureOptions = { global: 3, hybrid: 1, searchK: 10, ofBest: 0.7 };

/** What the stage did, for the trace. */
export interface StructureTrace {
  mode: RetrievalMode | null;
  searched: boolean;
  /** Units the index returned for the prompt. */
  found: number;
  /** Ids of the units added, in order. */
  added: string[];
  why: string;
}

export interface StructureStageInput {
  prompt: string;
  items: readonly ScoredCandidate[];
  mode: RetrievalMode | null;
  /** Items packed as Core: the structural ones go after them. */
  coreCount: number;
  searcher: StructureSearcher | null;
  judgment: TermCoverage | null;
  relevance: RelevanceOptions;
  refused: boolean;
  options: StructureOptions;
}

type StageOutput = { items: ScoredCandidate[]; trace: StructureTrace };

function skip(input: StructureStageInput, why: string): StageOutput {
  return { items: [...input.items], trace: { mode: input.mode, searched: false, found: 0, added: [], why } };
}

export async function withStructure(input: StructureStageInput): Promise<StageOutput> {
  const limit = input.mode === 'GLOBAL' ? input.options.global : input.mode === 'HYBRID' ? input.options.hybrid : 0;
  if (limit <= 0) return skip(input, input.mode === null ? 'intent routing is off' : `a ${input.mode} prompt reads chunks and notes only`);
  if (!input.searcher) return skip(input, 'this vault has no structural index');
  if (input.refused) return skip(input, 'the vault holds nothing on this prompt');
  if (!input.judgment) return skip(input, 'no term statistics to judge structural units by');
  const hits = await input.searcher.search(input.prompt, input.options.searchK);
  const line = Math.max(input.relevance.refuseBelow, (input.options.ofBest ?? input.relevance.keepRatio) * input.judgment.best);
  const present = new Set(input.items.map((i) => i.record.id));
  const admitted = hits
    .filter((h) => !present.has(h.record.id))
    .map((h) => ({ hit: h, coverage: unitCoverage(input.judgment!, h.terms) }))
    .filter((h) => h.coverage >= line)
    .slice(0, limit);
  // An overview (GLOBAL) follows the Core items; for a HYBRID prompt the unit comes after every
  // memory, so it never displaces one from the first places (the package orders by tier anyway).
  const at = input.mode === 'GLOBAL' ? Math.min(input.coreCount, input.items.length) : input.items.length;
  const structural: ScoredCandidate[] = admitted.map(({ hit, coverage }, i) => ({
    record: hit.record,
    signals: { bm25Rank: null, bm25Score: hit.score, vectorRank: null, vectorSimilarity: null, rrf: 0, variants: [], coverage },
    scores: { relevance: 10 / (10 + at + i), provenance: 1, recency: 1, score: coverage },
    gateReason: null,
  }));
  const why =
    structural.length > 0
      ? `${structural.length} of ${hits.length} structural units hold at least ${line.toFixed(2)} of the prompt`
      : hits.length > 0
        ? `none of ${hits.length} structural units holds ${line.toFixed(2)} of the prompt`
        : 'no structural unit shares a word with the prompt';
  return {
    items: [...input.items.slice(0, at), ...structural, ...input.items.slice(at)],
    trace: { mode: input.mode, searched: true, found: hits.length, added: structural.map((s) => s.record.id), why },
  };
}
