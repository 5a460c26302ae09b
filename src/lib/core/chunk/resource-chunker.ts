/**
 * Resources (pasted documents, notes) -> one chunk per heading level (its own body; children are
 * their own chunks), a level longer than the budget split between sentences. Levels with more than
 * `maxBullets` bullets or with bullets and no prose are flagged.
 */
import { countTokens } from '../text/token-count';
import { buildContextText, isoDate } from './context-text';
import { levelFlags } from './level-flags';
import { splitStructure } from './split-structure';
import { type ChunkDraft, type ChunkOptions, DEFAULT_CHUNK_OPTIONS } from './types';

export interface ChunkResource {
  id: string;
  title: string;
  text: string;
  createdAt: number | null;
}

export function chunkResource(
  resource: ChunkResource,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
  count: (text: string) => number = countTokens,
): ChunkDraft[] {
  if (!/\S/u.test(resource.text)) return [];
  const date = isoDate(resource.createdAt);
  return splitStructure(resource.text, 'resource', options.maxTokens, count).map((piece, n) => {
    const text = resource.text.slice(piece.start, piece.end).trim();
    return {
      id: `${resource.id}#${n}`,
      parentType: 'resource',
      parentId: resource.id,
      conversationId: null,
      messageIds: [],
      speakers: [],
      spans: [{ sourceId: resource.id, start: piece.start, end: piece.end }],
      text,
      contextText: buildContextText({ title: resource.title, date }, piece.headingPath, [{ speaker: null, text }]),
      headingPath: piece.headingPath,
      tokenCount: count(text),
      flags: levelFlags(text, options.maxBullets, piece.oversized),
    };
  });
}
