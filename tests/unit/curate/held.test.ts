import { describe, expect, it } from 'vitest';
import { classifyNote } from '../../../src/lib/core/curate/curator-classes';
import { HELD_FLAG, isHeld, liftHold, withSourceFlags } from '../../../src/lib/core/curate/held';
import { note } from '../../factories/records';

describe('candidates held for a person', () => {
  it('inherits every source message flag, and is held when any of them (or its own) is a safety flag', () => {
    expect(withSourceFlags(['hedged'], [[], ['injection:ignore-instructions']]).sort()).toEqual(
      ['hedged', 'injection:ignore-instructions', HELD_FLAG].sort(),
    );
    expect(withSourceFlags([], [['hidden-text']])).toContain(HELD_FLAG);
    expect(withSourceFlags(['injection:forged-turn'], [[]])).toContain(HELD_FLAG);
    // Clean sources and quality flags alone hold nothing.
    expect(withSourceFlags(['too-long', 'repaired:category'], [[], []])).toEqual(['too-long', 'repaired:category']);
    // Inheriting again changes nothing.
    const once = withSourceFlags([], [['injection:prompt-leak']]);
    expect(withSourceFlags(once, [['injection:prompt-leak']]).sort()).toEqual([...once].sort());
  });

  it('a person keeping it lifts the hold and keeps what was found', () => {
    const flags = withSourceFlags([], [['injection:prompt-leak']]);
    expect(isHeld({ flags })).toBe(true);
    expect(liftHold(flags)).toEqual(['injection:prompt-leak']);
    expect(isHeld({ flags: liftHold(flags) })).toBe(false);
  });

  it('the curator never proposes keeping a held candidate: not pinned, not read often, not confident', () => {
    const now = Date.UTC(2026, 0, 1);
    const flags = withSourceFlags([], [['injection:ignore-instructions']]);
    const base = { status: 'provisional' as const, tier: 'engram' as const, createdAt: now - 1000, flags };
    for (const over of [{ pinned: true }, { accessCount: 10 }, { confidence: 0.99 }]) {
      const verdict = classifyNote(note({ ...base, ...over }), { now, contradicted: false });
      expect(verdict.class).toBe('keep');
      expect(verdict.reasons.join(' ')).toMatch(/flagged/u);
      // Without the hold the same note is proposed for keeping (the rule above is what stops it).
      expect(classifyNote(note({ ...base, ...over, flags: liftHold(flags) }), { now, contradicted: false }).class).toBe('promote');
    }
  });
});

describe('the curator and a held candidate that nobody reviewed', () => {
  it('may still propose pruning it when old, unread and unsure (the person confirms a prune)', () => {
    const now = Date.UTC(2026, 0, 1);
    const old = note({
      flags: withSourceFlags([], [['injection:ignore-instructions']]),
      confidence: 0.3,
      createdAt: now - 90 * 86_400_000,
    });
    expect(classifyNote(old, { now, contradicted: false }).class).toBe('prune');
    // Pinned: never pruned or archived, and still not promoted.
    expect(classifyNote({ ...old, pinned: true }, { now, contradicted: false }).class).toBe('keep');
    expect(classifyNote({ ...old, pinned: true }, { now, contradicted: true }).class).toBe('keep');
  });
});
