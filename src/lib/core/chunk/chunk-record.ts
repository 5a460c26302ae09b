import type { ChunkRecord, Tier } from '../records';
import { contentHash } from '../text/normalize';
import type { ChunkDraft } from './types';

/** Seals a draft into the stored shape; the content hash is of the raw text. */
export async function toChunkRecord(draft: ChunkDraft, stamp: { tier: Tier; hlc: string; createdAt: number }): Promise<ChunkRecord> {
  return {
    id: draft.id,
    parentType: draft.parentType,
    parentId: draft.parentId,
    conversationId: draft.conversationId,
    messageIds: [...draft.messageIds],
    text: draft.text,
    headingPath: [...draft.headingPath],
    tokenCount: draft.tokenCount,
    tier: stamp.tier,
    contentHash: await contentHash(draft.text),
    createdAt: stamp.createdAt,
    hlc: stamp.hlc,
  };
}
