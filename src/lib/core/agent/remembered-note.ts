/**
 * What an agent's `remember` becomes: a provisional engram candidate for the Inbox, never a kept
 * note. Write-time safety runs on the text (hidden characters stripped, secrets redacted,
 * injection-like lines flagged) and the quality gate flags it like an extracted unit. Its id comes
 * from its text, so remembering the same thing twice (a retry, two agents) is one candidate, and a
 * vault file carrying it merges like any other note.
 */
import { qualityFlags } from '../curate/quality-gate';
import type { Category } from '../extract/units';
import { derivedRecordId } from '../ids';
import type { NoteRecord } from '../records';
import { applyWriteSafety } from '../safety/write-safety';
import { contentHash, normalizeText } from '../text/normalize';

export const AGENT_FLAG = 'from-agent';
export const DEFAULT_REMEMBER_CATEGORY: Category = 'Facts';

export async function rememberedNote(input: { text: string; category?: Category; now: number }): Promise<NoteRecord> {
  const safe = applyWriteSafety(normalizeText(input.text));
  const hash = await contentHash(safe.text);
  return {
    id: await derivedRecordId('note', 'agent', hash),
    hlc: '',
    text: safe.text,
    category: input.category ?? DEFAULT_REMEMBER_CATEGORY,
    status: 'provisional',
    tier: 'engram',
    confidence: 0.5,
    sourceMessageIds: [],
    conversationId: null,
    createdAt: input.now,
    updatedAt: input.now,
    keptAt: null,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    pinned: false,
    contentHash: hash,
    flags: [...new Set([...qualityFlags(safe.text), ...safe.flags, AGENT_FLAG])],
  };
}
