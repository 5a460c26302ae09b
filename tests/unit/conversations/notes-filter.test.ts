import { describe, expect, it } from 'vitest';
import { filterNotes } from '../../../src/lib/client/notes-view';
import type { NoteRecord } from '../../../src/lib/core/records';

const note = (id: string, conversationId: string | null): NoteRecord =>
  ({
    id,
    text: `note ${id}`,
    category: 'Facts',
    status: 'kept',
    tier: 'engram',
    conversationId,
    keptAt: 1,
    updatedAt: 1,
  }) as NoteRecord;

describe('filterNotes by conversation (the Notes screen opened from a conversation)', () => {
  const notes = [note('a', 'c1'), note('b', 'c2'), note('c', null)];

  it('keeps every note without a conversation filter', () => {
    expect(filterNotes(notes, 'kept', '').map((n) => n.id)).toEqual(['a', 'b', 'c']);
  });

  it('keeps only the notes of that conversation, with the text query still applied', () => {
    expect(filterNotes(notes, 'kept', '', 'c1').map((n) => n.id)).toEqual(['a']);
    expect(filterNotes(notes, 'kept', 'note b', 'c1')).toEqual([]);
  });
});
