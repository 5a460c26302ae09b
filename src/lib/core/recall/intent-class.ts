/**
 * Intent routing (DESIGN, "Growing the read path"): every prompt gets one of six intents, by rules
 * and archetype vectors fused, the language model asked only when the fused confidence is low and a
 * model is present, re-weighted by the person's own intent history. The intent picks the retrieval
 * mode (LOCAL for lookups and facts, GLOBAL for concepts and exploration, HYBRID across domains),
 * the fusion weights and the budget tiers (INTENT_PROFILES). The screen shows it and the person may
 * change it; the trace says why it was chosen.
 */
import { z } from 'zod';
import type { Llm, LlmMessage } from '../api/llm';
import { dot } from '../index/vector-math';
import { completeJson } from '../llm-json';
import { namedTerms } from './text-features';

export const INTENT_CLASSES = ['entity_lookup', 'factual', 'conceptual', 'exploratory', 'cross_domain', 'unknown'] as const;
export type IntentClass = (typeof INTENT_CLASSES)[number];
export type RetrievalMode = 'LOCAL' | 'GLOBAL' | 'HYBRID';

export interface IntentProfile {
  mode: RetrievalMode;
  /** Multiplies the vector lists' fusion weight (the keyword lists keep theirs). */
  vectorBoost: number;
  /** Top items packed as Core (budget.ts). */
  coreCount: number;
}

/**
 * LOCAL intents keep the weights measured on LoCoMo (whose questions are facts and lookups);
 * GLOBAL ones lean on meaning more than on words and keep fewer items whole, since an overview
 * needs breadth. The GLOBAL / HYBRID values are design values until a conceptual benchmark exists.
 */
export const INTENT_PROFILES: Readonly<Record<IntentClass, IntentProfile>> = {
  entity_lookup: { mode: 'LOCAL', vectorBoost: 1, coreCount: 3 },
  factual: { mode: 'LOCAL', vectorBoost: 1, coreCount: 3 },
  conceptual: { mode: 'GLOBAL', vectorBoost: 2, coreCount: 2 },
  exploratory: { mode: 'GLOBAL', vectorBoost: 2, coreCount: 2 },
  cross_domain: { mode: 'HYBRID', vectorBoost: 1.5, coreCount: 3 },
  unknown: { mode: 'HYBRID', vectorBoost: 1, coreCount: 3 },
};

type Scores = Record<IntentClass, number>;
const zero = (): Scores => ({ entity_lookup: 0, factual: 0, conceptual: 0, exploratory: 0, cross_domain: 0, unknown: 0 });

interface Rule {
  intent: Exclude<IntentClass, 'unknown'>;
  pattern: RegExp;
  weight: number;
  why: string;
}

const RULES: readonly Rule[] = [
  {
    intent: 'entity_lookup',
    pattern: /^(?:who (?:is|was|are)|tell me about|what do (?:i|we) know about|everything (?:about|on))\b/iu,
    weight: 2,
    why: 'asks about someone or something as a whole',
  },
  {
    intent: 'entity_lookup',
    pattern: /^(?:what is|what was) (?:the )?(?:name|email|address|phone|website|title) of\b/iu,
    weight: 2,
    why: 'asks for a name or a handle',
  },
  {
    intent: 'factual',
    pattern: /^(?:when|where|which|how (?:many|much|long|often|old)|what (?:time|date|day|year|month))\b/iu,
    weight: 2,
    why: 'asks when / where / which / how many',
  },
  {
    intent: 'factual',
    pattern: /^(?:what|who) (?:did|does|do|has|have|is|was|are|were)\b/iu,
    weight: 1,
    why: 'asks what someone did or has',
  },
  { intent: 'factual', pattern: /^(?:did|does|do|is|was|has|have|are|were)\b/iu, weight: 1.5, why: 'a yes / no question about a fact' },
  {
    intent: 'factual',
    pattern: /\b(?:decide|decided|pick|picked|chose|chosen|settled on|agreed)\b/iu,
    weight: 1,
    why: 'asks what was decided',
  },
  {
    intent: 'conceptual',
    pattern:
      /^(?:why|how (?:does|do|did|is|are|can|could|should|would)|explain|what is the (?:difference|reason|idea|point|principle))\b/iu,
    weight: 2,
    why: 'asks why or how something works',
  },
  {
    intent: 'conceptual',
    pattern: /\b(?:concept|principle|theory|meaning|understand|overview|summar(?:y|ize|ise))\b/iu,
    weight: 1,
    why: 'asks for understanding or an overview',
  },
  {
    intent: 'exploratory',
    pattern: /^(?:would|could|might|what if|what (?:could|might|would)|any ideas?|ideas for|brainstorm|suggest|what are some)\b/iu,
    weight: 2,
    why: 'asks what could or might be',
  },
  {
    intent: 'exploratory',
    pattern: /\b(?:likely|options|alternatives?|possibilit(?:y|ies)|explore|inspiration)\b/iu,
    weight: 1,
    why: 'weighs possibilities',
  },
  // Big-picture requests (written from tests/fixtures/recall/global-prompts-dev.json, checked once on
  // global-prompts.json; recall README, "Routing big-picture prompts"): a recap, a reason asked in
  // other words than "why", the options weighed. They outweigh the form that reads as a fact
  // ("Where did I land on ...", "Which alternatives did I weigh ...").
  {
    intent: 'conceptual',
    pattern:
      /^(?:(?:a |some )?(?:quick|short|brief) )?(?:recap|sum (?:it |this |things )?up|summari[sz]e|remind me|refresh my memory|catch me up|bring me up to speed|fill me in|walk me through|talk me through|run me through|take me through|lay out|outline|tell me again|pull together|give me (?:the|a) (?:rundown|gist|big picture|overview|summary|short version|recap))\b/iu,
    weight: 3,
    why: 'asks for a recap',
  },
  {
    intent: 'conceptual',
    pattern:
      /^(?:so )?(?:what(?:'s| is| was) (?:the )?(?:gist|short version|big picture|game plan|story)\b|where (?:did|do|does|have) (?:i|we|things|it) (?:land|end up|ended up|get to|got to|stand)\b)|\bi(?:'ve| have) lost track\b/iu,
    weight: 3,
    why: 'asks where a subject stands as a whole',
  },
  {
    intent: 'conceptual',
    pattern:
      /^(?:what|which \w+) (?:made|pushed|steered|convinced|persuaded|tipped) (?:me|us)\b|^what (?:\w+ )?(?:prompted|guided|drove|shaped|led to)\b|^what(?:'s| is| was) (?:the )?(?:reasoning|reason|thinking|logic) behind\b|^what was behind\b|^how come\b|\b(?:and|but) why\s*\??$/iu,
    weight: 3,
    why: 'asks for the reasons behind a choice',
  },
  {
    intent: 'exploratory',
    pattern:
      /\bdid (?:i|we) (?:weigh|consider|compare|choose between|chose between|drop|rule out)\b|\btrade-?offs?\b|\bruled? out\b|\bknocked\b.*\bout\b/iu,
    weight: 3,
    why: 'asks which options were weighed',
  },
  // Connecting two subjects outweighs the form of the question ("How does X relate to Y?").
  {
    intent: 'cross_domain',
    pattern: /\b(?:relate[sd]? to|relationship between|connection between|in common|compare[sd]?|comparison|both|across|apply .+ to)\b/iu,
    weight: 3,
    why: 'connects two subjects',
  },
];

/** Rule scores (normalized to sum 1 over the classes that fired) and the reasons that fired. */
export function ruleScores(prompt: string): { scores: Scores; why: string[] } {
  const text = prompt.trim();
  const scores = zero();
  const why: string[] = [];
  for (const rule of RULES) {
    if (!rule.pattern.test(text)) continue;
    scores[rule.intent] += rule.weight;
    why.push(`${rule.intent}: ${rule.why}`);
  }
  // A short prompt that is mostly a name ("Caroline", "the Lisbon trip") looks something up.
  const named = namedTerms(text).join(' ').split(/\s+/u).filter(Boolean).length;
  const length = text.split(/\s+/u).filter(Boolean).length;
  if (length <= 4 && named > 0 && named >= length / 2) {
    scores.entity_lookup += 2;
    why.push('entity_lookup: the prompt is mostly a name');
  }
  return { scores: normalize(scores), why };
}

function normalize(scores: Scores): Scores {
  const total = INTENT_CLASSES.reduce((sum, c) => sum + scores[c], 0);
  if (total === 0) return { ...zero(), unknown: 1 };
  return Object.fromEntries(INTENT_CLASSES.map((c) => [c, scores[c] / total])) as Scores;
}

/** Prompts that stand for each intent; their centroid is the intent's archetype vector. */
export const ARCHETYPES: Readonly<Record<Exclude<IntentClass, 'unknown'>, readonly string[]>> = {
  entity_lookup: ['Who is Ana?', 'Tell me about the Lisbon project', 'What do I know about my landlord?', 'Everything about the cat'],
  factual: ['When did we move the meeting?', 'Which database did we pick?', 'How many tiles did I order?', 'Where did I park the car?'],
  conceptual: [
    'Why does the dough rise slowly?',
    'How does the irrigation controller work?',
    'Explain the difference between the two plans',
    'What is the idea behind the design?',
  ],
  exploratory: [
    'What could I try for the garden next spring?',
    'Any ideas for the trip?',
    'Would she enjoy a pottery class?',
    'What are some options for the kitchen?',
  ],
  cross_domain: [
    'How does my running training relate to my sleep?',
    'What do the budget and the trip plans have in common?',
    'Compare the two job offers',
    'Can the garden plan apply to the balcony?',
  ],
};

export interface ArchetypeVectors {
  embedderId: string;
  centroids: Map<IntentClass, Float32Array>;
}

/** The archetype centroids for an embedder (cache them per embedder id: they never change). */
export async function archetypeVectors(embedder: {
  id: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}): Promise<ArchetypeVectors> {
  const entries = Object.entries(ARCHETYPES) as [IntentClass, readonly string[]][];
  const vectors = await embedder.embed(entries.flatMap(([, texts]) => texts));
  const centroids = new Map<IntentClass, Float32Array>();
  let at = 0;
  for (const [intent, texts] of entries) {
    const sum = new Float32Array(vectors[0]?.length ?? 0);
    for (const v of vectors.slice(at, at + texts.length)) for (let i = 0; i < sum.length; i++) sum[i]! += v[i]!;
    at += texts.length;
    const norm = Math.hypot(...sum) || 1;
    centroids.set(
      intent,
      sum.map((x) => x / norm),
    );
  }
  return { embedderId: embedder.id, centroids };
}

/** Softmax over the cosine to each archetype (temperature 0.1: cosines differ by hundredths). */
export function vectorScores(query: Float32Array, archetypes: ArchetypeVectors, temperature = 0.1): Scores {
  const scores = zero();
  const sims = [...archetypes.centroids].map(([intent, c]) => [intent, dot(query, c)] as const);
  const max = Math.max(...sims.map(([, s]) => s));
  let total = 0;
  for (const [intent, s] of sims) {
    scores[intent] = Math.exp((s - max) / temperature);
    total += scores[intent];
  }
  for (const c of INTENT_CLASSES) scores[c] = total > 0 ? scores[c] / total : 0;
  return scores;
}

/** One recorded intent of the person's own history. */
export interface IntentSample {
  intent: IntentClass;
  at: number;
}

export const PRIOR = { weight: 0.25, minSamples: 50, windowsDays: [7, 30, 90] } as const;
const DAY = 86_400_000;

/**
 * The personalization prior: p x (1 + 0.25 x frequency), where frequency is the class's share of
 * the person's intents over the last 7, 30 and 90 days, averaged; bypassed under 50 samples.
 */
export function applyPrior(
  scores: Scores,
  history: readonly IntentSample[],
  now: number,
): { scores: Scores; applied: boolean; samples: number } {
  const recent = history.filter((h) => now - h.at <= PRIOR.windowsDays[2] * DAY && h.at <= now);
  if (recent.length < PRIOR.minSamples) return { scores, applied: false, samples: recent.length };
  const frequency = zero();
  for (const days of PRIOR.windowsDays) {
    const window = recent.filter((h) => now - h.at <= days * DAY);
    for (const h of window) frequency[h.intent] += 1 / window.length / PRIOR.windowsDays.length;
  }
  const weighted = Object.fromEntries(INTENT_CLASSES.map((c) => [c, scores[c] * (1 + PRIOR.weight * frequency[c])])) as Scores;
  return { scores: normalize(weighted), applied: true, samples: recent.length };
}

export interface IntentClassification {
  intent: IntentClass;
  mode: RetrievalMode;
  confidence: number;
  source: 'given' | 'rules+vectors' | 'llm';
  scores: Scores;
  /** Why: the rules that fired, the archetype nearest, the prior, the model. */
  why: string[];
  prior: { applied: boolean; samples: number };
}

/** Rules weigh more than archetypes: they read the question's form, archetypes only its words. */
export const FUSION = { rules: 0.6, vectors: 0.4, askModelBelow: 0.5 } as const;

const intentSchema = z.object({ intent: z.enum(INTENT_CLASSES) });

function modelMessages(prompt: string): LlmMessage[] {
  return [
    {
      role: 'system',
      content: [
        'Classify a request to a personal memory vault into one intent:',
        'entity_lookup (about a person, place or thing as a whole), factual (a specific fact: when, where, which, what was decided),',
        'conceptual (why or how something works), exploratory (possibilities, ideas), cross_domain (connects two subjects), unknown.',
        'Answer with JSON only: {"intent": "..."}.',
      ].join('\n'),
    },
    { role: 'user', content: `Request:\n${prompt}` },
  ];
}

export interface ClassifyOptions {
  /** The intent the person chose on the screen: used as is. */
  given?: IntentClass | null;
  queryVector?: Float32Array | null;
  archetypes?: ArchetypeVectors | null;
  history?: readonly IntentSample[];
  now: number;
  llm?: Llm | null;
  signal?: AbortSignal;
  clock?: () => number;
}

const best = (scores: Scores): [IntentClass, number] =>
  INTENT_CLASSES.map((c) => [c, scores[c]] as [IntentClass, number]).reduce((a, b) => (b[1] > a[1] ? b : a));

export async function classifyIntent(prompt: string, options: ClassifyOptions): Promise<IntentClassification> {
  if (options.given) {
    const scores = { ...zero(), [options.given]: 1 };
    return {
      intent: options.given,
      mode: INTENT_PROFILES[options.given].mode,
      confidence: 1,
      source: 'given',
      scores,
      why: ['chosen by you'],
      prior: { applied: false, samples: 0 },
    };
  }
  const rules = ruleScores(prompt);
  const why = [...rules.why];
  let fused = rules.scores;
  if (options.queryVector && options.archetypes) {
    const vectors = vectorScores(options.queryVector, options.archetypes);
    fused = normalize(
      Object.fromEntries(INTENT_CLASSES.map((c) => [c, FUSION.rules * rules.scores[c] + FUSION.vectors * vectors[c]])) as Scores,
    );
    const [nearest, p] = best(vectors);
    why.push(`nearest archetype: ${nearest} (${p.toFixed(2)})`);
  }
  const prior = applyPrior(fused, options.history ?? [], options.now);
  if (prior.applied) why.push(`your last ${prior.samples} intents re-weighted it`);
  else why.push(`no personal prior (${prior.samples} of ${PRIOR.minSamples} intents recorded)`);
  let [intent, confidence] = best(prior.scores);
  let source: IntentClassification['source'] = 'rules+vectors';
  // "unknown" is never a confident answer: with a model present, it is asked.
  if ((confidence < FUSION.askModelBelow || intent === 'unknown') && options.llm) {
    const outcome = await completeJson(options.llm, modelMessages(prompt), intentSchema, {
      timeoutMs: 4_000,
      maxTokens: 30,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    if (outcome.ok) {
      why.push(
        `${intent === 'unknown' ? 'no rule fired' : `confidence ${confidence.toFixed(2)} was low`}: the model chose ${outcome.value.intent}`,
      );
      intent = outcome.value.intent;
      source = 'llm';
      confidence = Math.max(confidence, prior.scores[intent]);
    } else why.push(`confidence ${confidence.toFixed(2)} was low or unknown; the model did not answer (${outcome.reason})`);
  }
  return {
    intent,
    mode: INTENT_PROFILES[intent].mode,
    confidence,
    source,
    scores: prior.scores,
    why,
    prior: { applied: prior.applied, samples: prior.samples },
  };
}
