import { describe, expect, it } from 'vitest';
import {
  applyPrior,
  archetypeVectors,
  classifyIntent,
  INTENT_PROFILES,
  PRIOR,
  ruleScores,
  vectorScores,
  type IntentSample,
} from '../../../src/lib/core/recall/intent-class';
import { LexicalEmbedder } from '../../../src/lib/models/lexical-embedder';
import { scriptedLlm } from '../../factories/scripted-llm';

const DAY = 86_400_000;
const NOW = 1_000 * DAY;
const top = (scores: Record<string, number>) => Object.entries(scores).sort((a, b) => b[1] - a[1])[0]![0];

describe('intent classification', () => {
  it('rules read the form of the question', () => {
    expect(top(ruleScores('When did Caroline go to the support group?').scores)).toBe('factual');
    expect(top(ruleScores('Which database did we pick for the irrigation schedules?').scores)).toBe('factual');
    expect(top(ruleScores('Why does my sourdough rise slowly in winter?').scores)).toBe('conceptual');
    expect(top(ruleScores('Would Melanie enjoy a pottery workshop?').scores)).toBe('exploratory');
    expect(top(ruleScores('How does my training plan relate to my sleep log?').scores)).toBe('cross_domain');
    expect(top(ruleScores('Caroline Smith').scores)).toBe('entity_lookup');
    expect(top(ruleScores('espresso').scores)).toBe('unknown');
    expect(ruleScores('When did we decide?').why.length).toBeGreaterThan(0);
  });

  it('big-picture requests: a recap, where a subject stands, the reasons in other words, the options weighed', () => {
    const cases: [string, string][] = [
      ['Catch me up on the fish tank plan.', 'conceptual'],
      ['Quick recap of the away days, please.', 'conceptual'],
      ['Give me the rundown on the hens.', 'conceptual'],
      ['Sum up what I decided about the bakery prices.', 'conceptual'],
      ["What's the gist of my cycling plan?", 'conceptual'],
      ['Where did I land on the reading list?', 'conceptual'],
      ["I've lost track: what was the fix for the tap?", 'conceptual'],
      ['What made me pick Ghost over Substack?', 'conceptual'],
      ['What prompted the second opinion on my knee?', 'conceptual'],
      ['Which materials did we choose for the kitchen, and why?', 'conceptual'],
      ['Which alternatives did I weigh for the blog?', 'exploratory'],
      ['What trade-offs did I make to stay under budget?', 'exploratory'],
      ['What ruled out a Kindle?', 'exploratory'],
    ];
    expect(cases.map(([prompt]) => [prompt, top(ruleScores(prompt).scores)])).toEqual(cases);
    // Lookups keep their form: a place, a pick. "What made <name> ..." is not read as the person's
    // own reasons (only "what made me / us"): no rule fires, as before.
    expect(top(ruleScores('What made Caroline join the support group?').scores)).toBe('unknown');
    expect(top(ruleScores('Where did Caroline move from?').scores)).toBe('factual');
    expect(top(ruleScores('Remind me').scores)).toBe('conceptual');
    expect(top(ruleScores('Which database did we pick?').scores)).toBe('factual');
  });

  it('archetype vectors place a prompt near the intent whose examples share its words', async () => {
    const embedder = new LexicalEmbedder();
    const archetypes = await archetypeVectors(embedder);
    expect(archetypes.centroids.size).toBe(5);
    const [q] = await embedder.embed(['Compare the two job offers and what they have in common']);
    expect(top(vectorScores(q!, archetypes))).toBe('cross_domain');
    const sum = Object.values(vectorScores(q!, archetypes)).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 6);
  });

  it('the personal prior re-weights by the share of recent intents, and only from 50 samples on', () => {
    const scores = { entity_lookup: 0, factual: 0.45, conceptual: 0.55, exploratory: 0, cross_domain: 0, unknown: 0 };
    const history = (n: number): IntentSample[] => Array.from({ length: n }, (_, i) => ({ intent: 'factual', at: NOW - (i % 5) * DAY }));
    const few = applyPrior(scores, history(PRIOR.minSamples - 1), NOW);
    expect(few).toMatchObject({ applied: false, samples: 49 });
    expect(few.scores).toEqual(scores);
    const many = applyPrior(scores, history(60), NOW);
    expect(many.applied).toBe(true);
    // Every recent intent was factual: frequency 1 in each window, so factual x 1.25 = 0.5625 > 0.55.
    expect(top(many.scores)).toBe('factual');
    expect(many.scores.factual).toBeCloseTo(0.5625 / (0.5625 + 0.55), 6);
    const old = applyPrior(
      scores,
      history(60).map((h) => ({ ...h, at: NOW - 200 * DAY })),
      NOW,
    );
    expect(old.applied).toBe(false);
  });

  it('asks the model only when the fused confidence is low and a model is present, and says why', async () => {
    const llm = scriptedLlm([JSON.stringify({ intent: 'exploratory' })]);
    const sure = await classifyIntent('When did Caroline go to the support group?', { now: NOW, llm });
    expect(sure).toMatchObject({ intent: 'factual', source: 'rules+vectors', mode: 'LOCAL' });
    expect(llm.calls).toHaveLength(0);
    const unsure = await classifyIntent('espresso', { now: NOW, llm });
    expect(unsure).toMatchObject({ intent: 'exploratory', source: 'llm', mode: 'GLOBAL' });
    expect(unsure.why.join(' ')).toMatch(/the model chose exploratory/u);
    const noModel = await classifyIntent('espresso', { now: NOW });
    expect(noModel).toMatchObject({ intent: 'unknown', source: 'rules+vectors', mode: 'HYBRID' });
  });

  it('uses the intent the person chose, with its mode and budget profile', async () => {
    const given = await classifyIntent('When did Caroline go to the support group?', { now: NOW, given: 'conceptual' });
    expect(given).toMatchObject({ intent: 'conceptual', source: 'given', mode: 'GLOBAL', confidence: 1, why: ['chosen by you'] });
    expect(INTENT_PROFILES.conceptual.coreCount).toBeLessThan(INTENT_PROFILES.factual.coreCount);
  });
});
