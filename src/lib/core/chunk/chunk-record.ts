import type { ChunkRecord, Tier } from '../records';
import { contentHash, sha256Hex } from '../text/normalize';
import type { ChunkDraft } from './types';

/**
 * Seals a draft into the stored shape. The content hash is of the raw text (what is quoted); the
 * context hash is of the context text (what is embedded), so a vector goes stale when either the
 * text or its context (a renamed conversation, say) changes.
 */
export async function toChunkRecord(draft: ChunkDraft, stamp: { tier: Tier; hlc: string; createdAt: number }): Promise<ChunkRecord> {
  return {
    id: draft.id,
    parentType: draft.parentType,
    parentId: draft.parentId,
    conversationId: draft.conversationId,
    messageIds: [...draft.messageIds],
    speakers: [...draft.speakers],
    text: draft.text,
    headingPath: [...draft.headingPath],
    tokenCount: draft.tokenCount,
    tier: stamp.tier,
    contentHash: await contentHash(draft.text),
    createdAt: stamp.createdAt,
    hlc: stamp.hlc,
    contextText: draft.contextText,
    contextHash: await sha256Hex(draft.contextText),
    spans: draft.spans.map((s) => ({ ...s })),
    flags: [...draft.flags],
  };
}
