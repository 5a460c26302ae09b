import type { NoteRecord } from '../core/records';
import { applyWriteSafety, safeField } from '../core/safety/write-safety';
import { contentHash } from '../core/text/normalize';

/**
 * A note as it may be stored: its text and title through write-time safety, whoever wrote it (a
 * person editing, a model's candidate, a curation proposal). When safety changed the text the
 * content hash is taken again, and the safety flags join the note's flags. Most notes come back
 * as they went in (the same object).
 */
export async function safeNote<T extends NoteRecord | null>(note: T): Promise<T> {
  if (note === null) return note;
  const safe = applyWriteSafety(note.text);
  const title = note.title === undefined ? undefined : safeField(note.title);
  if (safe.text === note.text && title === note.title) return note;
  return {
    ...note,
    text: safe.text,
    ...(title === undefined ? {} : { title }),
    contentHash: safe.text === note.text ? note.contentHash : await contentHash(safe.text),
    flags: [...new Set([...note.flags, ...safe.flags])],
  };
}
