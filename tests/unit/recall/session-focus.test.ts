import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/lib/core/index/bm25';
import { focusOnSessions } from '../../../src/lib/core/recall/session-focus';
import { termCoverage } from '../../../src/lib/core/recall/term-coverage';
import { scored } from '../../factories/recall';

/** Three chats: a Lisbon trip (two turns), a garden controller, and a chat that mentions Lisbon once. */
const ITEMS = [
  scored({ id: 'trip-1', conversationId: 'trip', text: 'We stay in Alfama, not Baixa, for the Lisbon trip.' }, 1),
  scored({ id: 'trip-2', conversationId: 'trip', text: 'Day three: the train to Cascais; Sintra is skipped.' }, 0.9),
  scored({ id: 'garden-1', conversationId: 'garden', text: 'The garden controller skips watering on rainy days.' }, 0.8),
  scored({ id: 'work-1', conversationId: 'work', text: 'My colleague flew to Lisbon for a conference.' }, 0.7),
  scored({ id: 'note-1', conversationId: null, text: 'A note of its own about trains.' }, 0.6),
];

function judge(prompt: string) {
  const bm25 = new Bm25Index();
  for (const item of ITEMS) bm25.add(item.record.id, item.record.text);
  return termCoverage(
    bm25.explain(
      prompt,
      ITEMS.map((i) => i.record.id),
    ),
  );
}

describe('session focus', () => {
  it('keeps the conversations whose memories together hold most of the prompt, and says why the others left', () => {
    const judgment = judge('Overview of the Lisbon trip: Alfama, the Cascais train and Sintra');
    const out = focusOnSessions(ITEMS, judgment, { ratio: 0.5, refuseBelow: 0.2 });
    expect(out.items.map((i) => i.record.id)).toEqual(['trip-1', 'trip-2', 'note-1']);
    expect(out.dropped.map((d) => d.candidate.record.id)).toEqual(['garden-1', 'work-1']);
    expect(out.dropped.every((d) => d.stage === 'relevance')).toBe(true);
    expect(out.dropped[1]!.reason).toMatch(
      /^its conversation's memories hold \d+ % of the prompt, under 50 % of the best conversation's \d+ %$/u,
    );
    expect(out.trace).toMatchObject({ ratio: 0.5, kept: 1, left: 2 });
    expect(out.trace!.best).toBeGreaterThan(0.5);
  });

  it('the ratio sets how far below the best a conversation may fall', () => {
    const judgment = judge('Lisbon trip and the train to Cascais');
    const loose = focusOnSessions(ITEMS, judgment, { ratio: 0.1, refuseBelow: 0.2 });
    expect(loose.items.map((i) => i.record.id)).toContain('work-1');
    const strict = focusOnSessions(ITEMS, judgment, { ratio: 0.9, refuseBelow: 0.2 });
    expect(strict.items.map((i) => i.record.id)).not.toContain('work-1');
  });

  it('keeps pinned and structural items, and does nothing when no conversation holds the refusal line', () => {
    const judgment = judge('Overview of the Lisbon trip: Alfama, the Cascais train and Sintra');
    const pinned = ITEMS.map((i) => (i.record.id === 'garden-1' ? { ...i, record: { ...i.record, pinned: true } } : i));
    const structural = scored({ id: 'summary:garden', conversationId: 'garden', kind: 'structure', text: 'Garden summary' }, 0.5);
    const out = focusOnSessions([...pinned, structural], judgment, { ratio: 0.5, refuseBelow: 0.2 });
    expect(out.items.map((i) => i.record.id)).toEqual(['trip-1', 'trip-2', 'garden-1', 'note-1', 'summary:garden']);
    const weak = focusOnSessions(ITEMS, judge('quantum chromodynamics and Lisbon'), { ratio: 0.5, refuseBelow: 0.9 });
    expect(weak).toEqual({ items: ITEMS, dropped: [], trace: null });
  });
});
