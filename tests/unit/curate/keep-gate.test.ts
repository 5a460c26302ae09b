import { describe, expect, it } from 'vitest';
import { claimPieces, isKeepBlocked, keepBlocks, splitChanges } from '../../../src/lib/core/curate/keep-gate';
import { promotionOf } from '../../../src/lib/core/curate/promotion';
import { qualityFlags } from '../../../src/lib/core/curate/quality-gate';
import type { NoteRecord } from '../../../src/lib/core/records';

const TWO_CLAIMS = 'We moved the launch to March. The budget is capped at 40k euros.';
const OLDER = 'We will use Postgres for the garden database.';
const CONTRA = 'We will not use Postgres for the garden database.';

function candidate(text: string, extra: Partial<NoteRecord> = {}): NoteRecord {
  return {
    id: 'note_a',
    hlc: 'h1',
    text,
    category: 'Decisions',
    status: 'provisional',
    tier: 'engram',
    confidence: 0.5,
    sourceMessageIds: ['m1', 'm2'],
    conversationId: 'c1',
    createdAt: 10,
    updatedAt: 10,
    keptAt: null,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    pinned: false,
    contentHash: 'hash',
    flags: qualityFlags(text),
    review: {
      extractor: 'rule-based',
      extractorVersion: 1,
      llmId: null,
      kind: 'unit',
      repairs: [],
      proposal: { action: 'add' },
      decisionNote: null,
    },
    ...extra,
  };
}

function contradicting(): NoteRecord {
  return candidate(CONTRA, {
    flags: ['contradicts'],
    review: {
      extractor: 'rule-based',
      llmId: null,
      kind: 'unit',
      repairs: [],
      proposal: { action: 'supersede', targetId: 'note_old', targetText: OLDER, checkedBy: 'rules', reason: null },
      decisionNote: null,
    },
  });
}

describe('the quality gate decides (keep-gate)', () => {
  it('refuses several claims, too long and contradicts; hedged and duplicate stay advisory', () => {
    expect(keepBlocks(candidate(TWO_CLAIMS))).toEqual(['several-claims']);
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    expect(keepBlocks(candidate(long))).toContain('too-long');
    expect(keepBlocks(contradicting())).toEqual(['contradicts']);
    expect(keepBlocks(candidate('Maybe we prune the maple in February.', { flags: ['hedged', 'duplicate'] }))).toEqual([]);
    expect(isKeepBlocked(candidate('We prune the maple in February.'))).toBe(false);
  });

  it('an edit is judged on its own text; a contradiction holds while the rules still see it', () => {
    const note = candidate(TWO_CLAIMS);
    expect(keepBlocks(note, { text: 'We moved the launch to March.' })).toEqual([]);
    expect(keepBlocks(candidate('We moved the launch to March.'), { text: TWO_CLAIMS })).toEqual(['several-claims']);
    const contra = contradicting();
    expect(keepBlocks(contra, { text: 'We will not use Postgres for the garden database at all.' })).toEqual(['contradicts']);
    expect(keepBlocks(contra, { text: 'The garden database needs a nightly backup.' })).toEqual([]);
    // Kept on purpose as replacing the older note: the sweep proposes the supersession.
    expect(keepBlocks(contra, { replaces: true })).toEqual([]);
    // Replacing lifts only the contradiction.
    expect(keepBlocks(candidate(TWO_CLAIMS, { flags: ['several-claims', 'contradicts'] }), { replaces: true })).toEqual(['several-claims']);
  });

  it('a model-found contradiction is lifted by a real edit, not by punctuation, case or spacing', () => {
    // The rules see no conflict between these two; the model did.
    const text = 'The garden database moves to SQLite.';
    const note = candidate(text, {
      flags: ['contradicts'],
      review: {
        ...contradicting().review!,
        proposal: { action: 'supersede', targetId: 'note_old', targetText: OLDER, checkedBy: 'llm', reason: 'a different database' },
      },
    });
    expect(keepBlocks(note)).toEqual(['contradicts']);
    for (const same of ['The garden database moves to SQLite', '  the garden database   moves to SQLite!  ', `${text}.`]) {
      expect(keepBlocks(note, { text: same })).toEqual(['contradicts']);
    }
    expect(keepBlocks(note, { text: 'The garden database needs a nightly backup.' })).toEqual([]);
  });

  it('splits into the claims the flag counted, each with the original provenance, and retires the original', () => {
    const note = candidate(TWO_CLAIMS, { flags: [...qualityFlags(TWO_CLAIMS), 'repaired:trim', 'held'] });
    const texts = claimPieces(note.text);
    expect(texts).toEqual(['We moved the launch to March.', 'The budget is capped at 40k euros.']);
    const changes = splitChanges(
      note,
      texts.map((text, i) => ({ id: `note_p${i}`, text, contentHash: `h${i}` })),
      99,
    );
    expect(changes.map((c) => [c.recordId, c.action, c.before?.id ?? null])).toEqual([
      ['note_p0', 'split', null],
      ['note_p1', 'split', null],
      ['note_a', 'split', 'note_a'],
    ]);
    const [a, b, retired] = changes.map((c) => c.after!);
    for (const piece of [a!, b!]) {
      expect(piece).toMatchObject({ status: 'provisional', category: 'Decisions', conversationId: 'c1', sourceMessageIds: ['m1', 'm2'] });
      expect(piece.flags).toEqual(['held']);
      expect(isKeepBlocked(piece)).toBe(false);
      // Built by the one candidate builder: the original's date, tier and confidence; its own text, hash and change time.
      expect(piece).toMatchObject({
        hlc: '',
        tier: note.tier,
        confidence: note.confidence,
        createdAt: note.createdAt,
        updatedAt: 99,
        keptAt: null,
        pinned: false,
        accessCount: 0,
      });
    }
    expect([a!.text, a!.contentHash, b!.text, b!.contentHash]).toEqual([texts[0], 'h0', texts[1], 'h1']);
    expect(retired).toMatchObject({ id: 'note_a', status: 'discarded', updatedAt: 99 });
    expect(claimPieces('We prune the maple in February.')).toHaveLength(1);
  });

  it('a piece keeps the contradiction only when it still conflicts with the older note', () => {
    const note = candidate(`${CONTRA} The greenhouse gets a new door in spring.`, {
      flags: ['several-claims', 'contradicts'],
      review: contradicting().review!,
    });
    const texts = claimPieces(note.text);
    const [first, second] = splitChanges(
      note,
      texts.map((text, i) => ({ id: `p${i}`, text, contentHash: `h${i}` })),
      5,
    ).map((c) => c.after!);
    expect(first!.flags).toContain('contradicts');
    expect(first!.review?.proposal.action).toBe('supersede');
    expect(second!.flags).not.toContain('contradicts');
    expect(second!.review?.proposal).toEqual({ action: 'add' });
  });

  it('the sweep never proposes keeping a candidate the gate blocks', () => {
    expect(promotionOf(candidate('We prune the maple in February.', { pinned: true }), { sourceCopies: 0 })?.to).toBe('kept');
    expect(promotionOf(candidate(TWO_CLAIMS, { pinned: true }), { sourceCopies: 5 })).toBeNull();
  });
});
