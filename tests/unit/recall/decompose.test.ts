import { describe, expect, it } from 'vitest';
import { decompose, decomposeDeterministic, LLM_VARIANT_WEIGHT, SUBSET_VARIANT_WEIGHT } from '../../../src/lib/core/recall/decompose';
import { keyPhrases, namedTerms, unframe } from '../../../src/lib/core/recall/text-features';
import { HANG, scriptedLlm } from '../../factories/scripted-llm';

describe('text features', () => {
  it('strips the frame of a question', () => {
    expect(unframe('What did I decide about the garden path lighting?')).toBe('garden path lighting');
    expect(unframe('Remind me what we said about Kubernetes autoscaling in the Atlas project')).toBe(
      'Kubernetes autoscaling in the Atlas project',
    );
    expect(unframe('Can you tell me about sourdough hydration again?')).toBe('sourdough hydration');
    expect(unframe('Why?')).toBe('Why');
    expect(unframe('What did I decide about?')).toBe('What did I decide about?');
    // Contracted frames, as the index folds them ("what's" is the term "what"), are frames too.
    expect(unframe("What's the weather in Paris?")).toBe('weather in Paris');
    expect(unframe('How’s the sourdough starter doing?')).toBe('sourdough starter doing');
    expect(unframe("What's")).toBe("What's");
    // "How many" asks for a count: its quantifier is the answer's form, not its subject.
    expect(unframe('How many turtles does Nate have?')).toBe('turtles does Nate have');
    expect(unframe('How much did the repair cost?')).toBe('repair cost');
    expect(unframe('How many times has Jon been to Paris?')).toBe('Jon been to Paris');
    // "long" and "often" are kept: answers say them ("a long time", "we go often").
    expect(unframe('How long has Caroline been painting?')).toBe('How long has Caroline been painting');
    expect(unframe('How often does John work out?')).toBe('How often does John work out');
    expect(unframe('How many?')).toBe('How many');
    // A request to describe, or to find what things share, frames the things named.
    expect(unframe('What attributes describe John?')).toBe('John');
    expect(unframe('Which words best describe the Atlas project?')).toBe('Atlas project');
    expect(unframe('How would you describe my sourdough routine?')).toBe('sourdough routine');
    expect(unframe('What do Jon and Gina both have in common?')).toBe('Jon and Gina');
    expect(unframe('What do the two gardens have in common?')).toBe('two gardens');
  });

  it('finds key phrases between stop words and named terms', () => {
    expect(keyPhrases('negative space in a Japanese garden')).toEqual(['japanese garden', 'negative space']);
    expect(namedTerms('Did Caroline meet the LGBTQ group in "Pride Month" 2023?')).toEqual(['Pride Month', 'Caroline', 'LGBTQ', '2023']);
  });
});

describe('deterministic decomposer', () => {
  it('gives up to three variants: concept, continuity, authority (no method variant without a model)', () => {
    const prompt = 'What did we decide about watering, pruning, mulching, feeding and repotting the Kyoto bonsai collection with Hiro?';
    const variants = decomposeDeterministic(prompt);
    expect(variants.map((v) => v.kind)).toEqual(['concept', 'continuity', 'authority']);
    expect(variants[0]!.text).toBe('watering, pruning, mulching, feeding and repotting the Kyoto bonsai collection with Hiro');
    expect(variants[1]!.text).toMatch(/^Kyoto Hiro /u);
    expect(variants[2]!.text).toBe(prompt);
    expect(variants.map((v) => v.weight)).toEqual([1, SUBSET_VARIANT_WEIGHT, 1]);
  });

  it('keeps the verbatim prompt only when its content words differ from the unframed one', () => {
    const variants = decomposeDeterministic('What did I decide about the lighting for the Kyoto garden path with Hiro?');
    expect(variants.map((v) => v.kind)).toEqual(['concept', 'continuity', 'authority']);
    expect(variants[1]!.text).toBe('Kyoto Hiro garden path');
  });

  it('collapses variants that would search the same words', () => {
    const variants = decomposeDeterministic('sourdough');
    expect(variants).toEqual([{ kind: 'concept', text: 'sourdough', weight: 1 }]);
  });

  it('skips a continuity variant that would be a lone name', () => {
    const kinds = decomposeDeterministic('What did Melanie paint recently?').map((v) => v.kind);
    expect(kinds).not.toContain('continuity');
  });
});

describe('decompose with an LLM', () => {
  const answer = JSON.stringify({
    variants: [
      { kind: 'concept', text: 'negative space in Japanese garden design' },
      { kind: 'method', text: 'raked gravel, borrowed scenery, asymmetry' },
      { kind: 'authority', text: 'ma (間) in karesansui' },
    ],
  });

  it('anchors on the unframed prompt and adds the model variants, temperature 0, schema-constrained', async () => {
    const llm = scriptedLlm([answer]);
    const result = await decompose('How do I use negative space in my garden?', { llm });
    expect(result.source).toBe('llm');
    expect(result.fallbackReason).toBeNull();
    expect(result.variants[0]).toEqual({ kind: 'concept', text: 'use negative space in my garden', weight: 1 });
    expect(result.variants.slice(1).every((v) => v.weight === LLM_VARIANT_WEIGHT)).toBe(true);
    expect(result.variants).toHaveLength(4);
    expect(llm.calls[0]!.options.temperature).toBe(0);
    expect(llm.calls[0]!.options.jsonSchema).toMatchObject({ type: 'object', required: ['variants'] });
  });

  it.each([
    ['invalid JSON', 'here are some queries', 'invalid-output'],
    ['a schema mismatch', JSON.stringify({ variants: [{ kind: 'concept', text: 'x' }] }), 'invalid-output'],
    ['an error', new Error('engine lost'), 'error'],
  ])('falls back to the deterministic decomposer on %s and says so', async (_, step, reason) => {
    const result = await decompose('What did I decide about the garden path lighting?', { llm: scriptedLlm([step]) });
    expect(result.source).toBe('deterministic');
    expect(result.fallbackReason).toContain(reason);
    expect(result.variants[0]!.text).toBe('garden path lighting');
  });

  it('falls back on a timeout', async () => {
    const result = await decompose('garden path lighting', { llm: scriptedLlm([HANG]), timeoutMs: 20 });
    expect(result.source).toBe('deterministic');
    expect(result.fallbackReason).toContain('timeout');
  });

  it('runs the deterministic decomposer without a model, with no fallback reason', async () => {
    const result = await decompose('garden path lighting');
    expect(result).toEqual({ variants: decomposeDeterministic('garden path lighting'), source: 'deterministic', fallbackReason: null });
  });
});
