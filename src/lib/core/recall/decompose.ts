/**
 * Decomposition: the prompt becomes up to 4 targeted query variants (concept, method, session
 * continuity, supplemental authority; without a model no method), searched in parallel and fused.
 * The deterministic decomposer needs no model; the LLM decomposer writes paraphrases a model can
 * think of, and falls back to the deterministic one on any failure, saying why.
 *
 * Weights (the variant's lists in the fusion): the unframed prompt is the anchor (1). The
 * deterministic continuity variant is a subset of the prompt's own words, so for BM25 it only
 * re-counts some of its terms; subset variants fused at 1, 0.3 and 0.1 cut recall@10 on LoCoMo dev
 * (test-double index) from 0.580 to 0.438, 0.487 and 0.569, at 0.05 it was 0.584: they get 0.05,
 * enough to add tail candidates without reordering the head. LLM variants are new wording, weighted
 * 0.5 next to the anchor until a real model is measured.
 *
 * Without a model there is no method variant (the prompt's key phrases as a keyword query) since
 * 2026-12-01: through the app path it moved no LoCoMo dev figure but up (funnel @10 0.764 -> 0.765,
 * hybrid 0.755 -> 0.757, 1,000 tokens equal, no conversation lower), and every other recall
 * evaluation equal or better (off-topic refusals 90.0 -> 90.1 %, `eval global` package share from
 * the prompt's chat 0.563 -> 0.570, `eval questions` answer in the first five 0.60 -> 0.61), while
 * its keyword search was the dearest of a prompt's (about 2.9 ms at 300k chunks against 2.1 for the
 * concept): services/recall/README.md. A model still writes one (its own words, not a subset).
 */
import { z } from 'zod';
import type { Llm, LlmMessage } from '../api/llm';
import type { StageGuard } from '../breaker/stage-guard';
import { completeJson } from '../llm-json';
import { contentWords, keyPhrases, namedTerms, unframe, words } from './text-features';
import type { Decomposition, QueryVariant, VariantKind } from './types';

export const MAX_VARIANTS = 4;
export const SUBSET_VARIANT_WEIGHT = 0.05;
export const LLM_VARIANT_WEIGHT = 0.5;

const VARIANT_KINDS = ['concept', 'method', 'continuity', 'authority'] as const satisfies readonly VariantKind[];

/** Variants with the same content words search the same thing: keep the first. */
function dedupe(variants: readonly QueryVariant[]): QueryVariant[] {
  const seen = new Set<string>();
  const out: QueryVariant[] = [];
  for (const v of variants) {
    const text = v.text.replace(/\s+/gu, ' ').trim();
    const content = contentWords(text);
    const key = [...new Set(content.length > 0 ? content : words(text))].sort().join(' ');
    if (key.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.push({ ...v, text });
  }
  return out.slice(0, MAX_VARIANTS);
}

/** Words of a text in first-seen order, each once (case-insensitive), original casing kept. */
function uniqueWords(text: string): string[] {
  const seen = new Set<string>();
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter((w) => !seen.has(w.toLowerCase()) && seen.add(w.toLowerCase()));
}

/**
 * Without a model:
 * - concept: the question without its frame ("what did I decide about X" -> "X"), the anchor;
 * - continuity: named terms (people, projects, places, dates) that tie it to earlier sessions,
 *   with the top key phrase for context (skipped when that is a single word: a lone name matches
 *   everything its person ever said);
 * - authority: the prompt verbatim, so no word of it is lost.
 * Variants with the same content words collapse, so a short prompt yields fewer than three.
 */
export function decomposeDeterministic(prompt: string): QueryVariant[] {
  const concept = unframe(prompt);
  const phrases = keyPhrases(concept);
  const named = namedTerms(prompt);
  const continuityWords = uniqueWords([...named, phrases[0] ?? ''].join(' '));
  const continuity = named.length > 0 && continuityWords.length >= 2 ? continuityWords.join(' ') : '';
  return dedupe([
    { kind: 'concept', text: concept, weight: 1 },
    { kind: 'continuity', text: continuity, weight: SUBSET_VARIANT_WEIGHT },
    { kind: 'authority', text: prompt, weight: 1 },
  ]);
}

const variantsSchema = z.object({
  variants: z
    .array(z.object({ kind: z.enum(VARIANT_KINDS), text: z.string().min(1).max(300) }))
    .min(3)
    .max(MAX_VARIANTS),
});

const SYSTEM = [
  'You write search queries for a private memory vault built from the person’s own AI conversations and notes.',
  'Rewrite the request into 3 or 4 short queries, one per angle:',
  '- concept: the core subject in plain words;',
  '- method: the techniques, steps or approaches the person would have discussed;',
  '- continuity: names, projects, places and dates that tie this to earlier sessions;',
  '- authority: the terms a reference document on the subject would use.',
  'Use only the request’s own subject. Do not answer it. Answer with JSON only.',
].join('\n');

export function decompositionMessages(prompt: string): LlmMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Request:\n${prompt}` },
  ];
}

export interface DecomposeOptions {
  llm?: Llm | null;
  timeoutMs?: number;
  signal?: AbortSignal;
  clock?: () => number;
  /** The stage's circuit breaker: open, the model-free path runs and says until when. */
  guard?: StageGuard;
}

/** LLM decomposition (anchored on the unframed prompt) with a deterministic fallback that says why. */
export async function decompose(prompt: string, options: DecomposeOptions = {}): Promise<Decomposition> {
  const fallback = (reason: string | null): Decomposition => ({
    variants: decomposeDeterministic(prompt),
    source: 'deterministic',
    fallbackReason: reason,
  });
  if (!options.llm) return fallback(null);
  const outcome = await completeJson(options.llm, decompositionMessages(prompt), variantsSchema, {
    timeoutMs: options.timeoutMs ?? 8_000,
    maxTokens: 300,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.guard ? { guard: options.guard } : {}),
  });
  if (!outcome.ok) return fallback(`the LLM decomposer did not run (${outcome.reason}: ${outcome.message}); used the deterministic one`);
  const anchor: QueryVariant = { kind: 'concept', text: unframe(prompt), weight: 1 };
  const variants = dedupe([anchor, ...outcome.value.variants.map((v) => ({ ...v, weight: LLM_VARIANT_WEIGHT }))]);
  if (variants.length < 2) return fallback('the LLM decomposer added no variant beyond the prompt; used the deterministic one');
  return { variants, source: 'llm', fallbackReason: null };
}
