import { loadTokenCounter } from '../../../src/lib/core/text/token-count';
import { describe, expect, it } from 'vitest';
import { parseExtractionOutput } from '../../../src/lib/core/extract/parse-output';
import type { RawUnit } from '../../../src/lib/core/extract/units';
import { validateUnits } from '../../../src/lib/core/extract/validate';
import { buildWindows } from '../../../src/lib/core/extract/windows';
import type { Role } from '../../../src/lib/core/records';
import { loadLlmScript } from '../../factories/scripted-llm';
import { MAPLE } from './conversation';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

const roles = new Map<string, Role>(MAPLE.map((m) => [m.id, m.role]));
const raw = (over: Partial<RawUnit>): RawUnit => ({
  kind: 'fact',
  category: 'Facts',
  text: 'The maple stands in a courtyard.',
  sourceMessageIds: ['msg-u1'],
  ...over,
});
const one = (over: Partial<RawUnit>) => validateUnits([raw(over)], { roles });
const rules = (result: ReturnType<typeof one>): string[] => [
  ...result.accepted.flatMap((u) => u.repairs.map((r) => r.rule)),
  ...result.rejected.flatMap((r) => r.reasons.map((n) => n.rule)),
];

describe('validator: one rule at a time', () => {
  it('passes a clean unit unchanged and counts it', () => {
    const result = one({});
    expect(result.accepted).toEqual([
      { kind: 'fact', category: 'Facts', text: 'The maple stands in a courtyard.', sourceMessageIds: ['msg-u1'], repairs: [] },
    ]);
    expect(result.passedUnchanged).toBe(1);
  });

  it('drops a unit without text (malformed) or with empty text', () => {
    expect(one({ text: 42 }).rejected[0]?.reasons[0]?.rule).toBe('malformed');
    expect(one({ text: ' … ' }).rejected[0]?.reasons[0]?.rule).toBe('empty');
  });

  it('repairs an unknown kind from a known category, drops when both are unknown', () => {
    const repaired = one({ kind: 'observation', category: 'Constraints' });
    expect(repaired.accepted[0]?.kind).toBe('constraint');
    expect(rules(repaired)).toContain('unknown-kind');
    expect(one({ kind: 'observation', category: 'Trivia' }).rejected[0]?.reasons[0]?.rule).toBe('unknown-kind');
  });

  it('repairs an unknown category to the kind default, reads loose spellings', () => {
    const unknown = one({ category: 'Trivia' });
    expect(unknown.accepted[0]?.category).toBe('Facts');
    expect(rules(unknown)).toEqual(['unknown-category']);
    expect(one({ kind: 'question', category: 'open questions', text: 'When to prune?' }).accepted[0]?.category).toBe('Open Questions');
    expect(one({ kind: 'claim', category: 'Provisional' }).accepted[0]?.category).toBe('Provisional/Exploratory');
  });

  it('moves a kind filed under a category it cannot take', () => {
    const result = one({ kind: 'action-item', category: 'Facts', text: 'Buy pruners.' });
    expect(result.accepted[0]?.category).toBe('Action Items');
    expect(rules(result)).toEqual(['category-mismatch']);
  });

  it('drops a unit that cites nothing', () => {
    expect(one({ sourceMessageIds: [] }).rejected[0]?.reasons[0]?.rule).toBe('no-citation');
    expect(one({ sourceMessageIds: undefined }).rejected[0]?.reasons[0]?.rule).toBe('no-citation');
  });

  it('removes cited ids that are not in the window, drops when none is left', () => {
    const partly = one({ sourceMessageIds: ['msg-u1', 'msg-zz'] });
    expect(partly.accepted[0]?.sourceMessageIds).toEqual(['msg-u1']);
    expect(rules(partly)).toEqual(['unknown-citation']);
    expect(one({ sourceMessageIds: ['msg-zz'] }).rejected[0]?.reasons[0]?.rule).toBe('unknown-citation');
  });

  it('refuses a decision that cites only an assistant message: kept as an idea', () => {
    const result = one({ kind: 'decision', category: 'Decisions', text: 'Add mulch around the maple.', sourceMessageIds: ['msg-a1'] });
    expect(result.accepted[0]).toMatchObject({ kind: 'claim', category: 'Ideas' });
    expect(rules(result)).toEqual(['decision-not-user']);
  });

  it('keeps a decision citing a user message and strips the assistant citations from it', () => {
    const result = one({
      kind: 'decision',
      category: 'Decisions',
      text: 'Prune in late February.',
      sourceMessageIds: ['msg-a1', 'msg-u2'],
    });
    expect(result.accepted[0]).toMatchObject({ kind: 'decision', category: 'Decisions', sourceMessageIds: ['msg-u2'] });
    expect(rules(result)).toEqual(['decision-not-user']);
  });

  it('routes a hedged confident unit to Provisional/Exploratory, and a hedged decision is no decision', () => {
    const fact = one({ text: 'Maybe the maple gets too much sun.' });
    expect(fact.accepted[0]?.category).toBe('Provisional/Exploratory');
    expect(rules(fact)).toEqual(['hedged']);
    const decision = one({ kind: 'decision', category: 'Decisions', text: 'I think we prune in February.', sourceMessageIds: ['msg-u2'] });
    expect(decision.accepted[0]).toMatchObject({ kind: 'claim', category: 'Provisional/Exploratory' });
  });

  it('files a question written as a fact under Open Questions', () => {
    const result = one({ text: 'Is the soil acidic enough?' });
    expect(result.accepted[0]).toMatchObject({ kind: 'question', category: 'Open Questions' });
    expect(rules(result)).toEqual(['interrogative']);
  });

  it('splits a unit holding several claims, each citing the same messages', () => {
    const result = one({ text: 'The maple leafs out in April; the leaves turn red in October.' });
    expect(result.accepted.map((u) => u.text)).toEqual(['The maple leafs out in April.', 'The leaves turn red in October.']);
    expect(result.accepted.every((u) => u.sourceMessageIds[0] === 'msg-u1')).toBe(true);
    expect(rules(result)).toContain('several-claims');
  });

  it('shortens a unit over fifteen words: filler first, then a split into several units, never a cut', () => {
    const filler = one({
      text: 'Honestly, the maple really needs very careful and quite gentle pruning every single year in the winter months.',
    });
    expect(filler.accepted).toHaveLength(1);
    expect(filler.accepted[0]?.text.split(' ').length).toBeLessThanOrEqual(15);
    expect(rules(filler)).toEqual(['too-long']);
    const text =
      'Japanese maples respond badly to heavy pruning and can take several growing seasons to recover their natural graceful shape afterwards.';
    const split = one({ text });
    expect(split.accepted.length).toBeGreaterThan(1);
    for (const unit of split.accepted) {
      expect(unit.text.split(' ').length).toBeLessThanOrEqual(15);
      expect(unit.repairs[0]?.message).toMatch(/^Split into \d units of at most 15 words/u);
    }
    const words = (t: string) => new Set(t.toLowerCase().match(/[a-z]+/gu));
    const kept = words(split.accepted.map((u) => u.text).join(' '));
    for (const w of words(text)) if (w !== 'and') expect(kept).toContain(w);
  });

  it('splits a unit over fifteen words even with no natural boundary, and rejects nothing for length', () => {
    const result = one({ text: 'Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma.' });
    expect(result.accepted.map((u) => u.text)).toEqual([
      'Alpha beta gamma delta epsilon zeta eta theta iota.',
      'Kappa lambda mu nu xi omicron pi rho sigma.',
    ]);
    expect(result.rejected).toHaveLength(0);
  });

  it('collapses a repetition into one unit that cites every message stating it', () => {
    const result = validateUnits([raw({}), raw({ text: 'the maple stands in a courtyard!', sourceMessageIds: ['msg-u2'] })], { roles });
    expect(result.accepted).toHaveLength(1);
    expect(result.accepted[0]?.sourceMessageIds).toEqual(['msg-u1', 'msg-u2']);
    expect(rules(result)).toContain('repetition');
  });

  it('ends every accepted text as one sentence with a capital and a full stop', () => {
    expect(one({ text: 'the maple stands in a courtyard' }).accepted[0]?.text).toBe('The maple stands in a courtyard.');
  });
});

describe('validator on a recorded answer that breaks every rule', () => {
  it('repairs or drops each unit with its reason', () => {
    const [window] = buildWindows(MAPLE);
    const step = loadLlmScript('extraction-rule-violations')[0];
    if (!window || !step || !('outputJson' in step)) throw new Error('fixture');
    const parsed = parseExtractionOutput(JSON.stringify(step.outputJson), window);
    if (!parsed.ok) throw new Error('parse');
    const result = validateUnits(parsed.value, { roles });
    expect(result.total).toBe(10);
    expect(result.accepted.some((u) => u.category === 'Decisions')).toBe(false);
    expect(result.rejected.map((r) => r.reasons[0]?.rule).sort()).toEqual(['malformed', 'unknown-citation']);
    const seen = new Set(rules(result));
    for (const rule of ['decision-not-user', 'unknown-category', 'too-long', 'several-claims', 'hedged', 'repetition', 'interrogative']) {
      expect(seen.has(rule), rule).toBe(true);
    }
    for (const unit of result.accepted) expect(unit.text.split(/\s+/u).length).toBeLessThanOrEqual(15);
  });
});
