/**
 * Re-extraction when the extractor changes (issue 13): the conversations whose never-reviewed
 * rule-based candidates came from an older `EXTRACTOR_VERSION` are extracted again, as ordinary
 * `extract.conversation` jobs after everything else in the queue. The job (extract-job.ts) then
 * replaces that conversation's stale candidates: one the new version proposes again is restamped,
 * one it no longer proposes is removed (with history: undo brings it back). Kept, edited, archived
 * and discarded notes are never touched; nor are candidates a language model proposed (the rules
 * would replace them with something worse when no model is lent).
 */
import { extractJob } from '../../core/api/extract-api';
import type { JobSpec } from '../../core/api/jobs';
import { EXTRACTOR_VERSION, extractorVersionOf } from '../../core/extract/version';
import type { NoteRecord } from '../../core/records';
import type { Vault } from '../../store/vault';

/** After imports' extraction (60): a version bump never delays the candidates of a fresh import. */
export const REEXTRACT_PRIORITY = 70;

/** A candidate the current extractor would replace: provisional, proposed by the rules, of an older version. */
export function isStaleCandidate(note: NoteRecord, version: number = EXTRACTOR_VERSION): boolean {
  return (
    note.status === 'provisional' &&
    note.tier === 'engram' &&
    note.conversationId !== null &&
    note.review !== undefined &&
    note.review.extractor !== 'llm' &&
    extractorVersionOf(note.review) < version
  );
}

/** Conversations (visible ones) holding stale candidates, in id order. */
export async function staleConversations(vault: Vault, version: number = EXTRACTOR_VERSION): Promise<string[]> {
  const ids = new Set<string>();
  await vault.db.notes
    .where('status')
    .equals('provisional')
    .each((note) => {
      if (isStaleCandidate(note, version)) ids.add(note.conversationId!);
    });
  const conversations = await vault.db.conversations.bulkGet([...ids].sort());
  return conversations.filter((c) => c !== undefined && c.state === 'visible').map((c) => c!.id);
}

export function reextractJob(conversationId: string): JobSpec {
  return { ...extractJob(conversationId), priority: REEXTRACT_PRIORITY };
}

/** Queues one job per stale conversation (a pending extraction of it is not queued twice). Returns how many. */
export async function queueReextraction(vault: Vault, now: () => number = Date.now, version: number = EXTRACTOR_VERSION): Promise<number> {
  const ids = await staleConversations(vault, version);
  for (const id of ids) await vault.jobs.enqueue(reextractJob(id), now());
  return ids.length;
}
