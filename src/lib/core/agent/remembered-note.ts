/**
 * What an agent's `remember` becomes: a provisional engram candidate for the Inbox, never a kept
 * note, built by the extractor's own candidate builder (core/extract/candidate-note.ts). Write-time
 * safety runs on the text (hidden characters stripped, secrets redacted, injection-like lines
 * flagged) and the quality gate flags it like an extracted unit; a text that trips the injection
 * rules is held as a candidate from a flagged message is (core/curate/held.ts): out of retrieval
 * and never proposed for keeping until a person keeps it. Its id comes from its text, so
 * remembering the same thing twice (a retry, two agents) is one candidate, and a vault file
 * carrying it merges like any other note.
 */
import { withSourceFlags } from '../curate/held';
import { candidateNote } from '../extract/candidate-note';
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
  const note = candidateNote({
    id: await derivedRecordId('note', 'agent', hash),
    text: safe.text,
    category: input.category ?? DEFAULT_REMEMBER_CATEGORY,
    contentHash: hash,
    flags: [...safe.flags, AGENT_FLAG],
    now: input.now,
  });
  // No source turns to inherit from: its own safety flags alone decide the hold.
  return { ...note, flags: withSourceFlags(note.flags, []) };
}
