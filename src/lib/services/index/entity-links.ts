/**
 * What the entity graph reads of each indexed document: a conversation chunk's text with its
 * speaker (found in the chunk's context text, "Speaker: text" lines), a note's title and text.
 * One function, so the index job, the load and a rebuild link entities the same way.
 */
import { linkEntities, type EntityMention } from '../../core/graph/entity-linker';
import type { ChunkRecord, NoteRecord } from '../../core/records';

/**
 * The version of what `chunkMentions` gives for a chunk: the saved entity graph
 * (documents-snapshot.ts) is read back only when it was linked by the same version. Bump it with
 * any change to the linker's output (tests/unit/recall/entity-links-recipe.test.ts pins that
 * output and fails until the recipe moves with it).
 */
export const LINK_RECIPE = 'link-4';

/** The speaker of a chunk's first line: the context text writes each line as "Speaker: text". */
export function chunkSpeaker(chunk: Pick<ChunkRecord, 'text' | 'contextText'>): string | null {
  const head = chunk.text.split('\n')[0]!.trim().slice(0, 40);
  if (!chunk.contextText || head.length === 0) return null;
  for (const line of chunk.contextText.split('\n')) {
    const at = line.indexOf(': ');
    if (at > 0 && at <= 60 && line.slice(at + 2).startsWith(head)) return line.slice(0, at);
  }
  return null;
}

export function chunkMentions(chunk: Pick<ChunkRecord, 'text' | 'contextText'>): EntityMention[] {
  return linkEntities(chunk.text, chunkSpeaker(chunk));
}

export function noteMentions(note: Pick<NoteRecord, 'text' | 'title'>): EntityMention[] {
  return linkEntities(note.title ? `${note.title}\n${note.text}` : note.text);
}
