/**
 * Thread maps, stored (table `threadMaps`, schema version 2): the arc of the thinking across the
 * sessions on one subject (core/extract/thread-map.ts), recomputed by each sweep from the live
 * notes, so recall can find them as units of their own (issue 12's GLOBAL view). The Conversations
 * screen still builds the map of the conversation it shows live (store/views/conversation-insight.ts),
 * so it follows every keep and edit at once.
 */
import { buildThreadMap, groupSessionsBySubject, type SessionUnits } from '../../core/extract/thread-map';
import type { CandidateUnit } from '../../core/extract/units';
import type { NoteRecord, StoredThreadMap } from '../../core/records';
import { runTx, withStoreTimeout } from '../../store/transaction';
import type { Vault } from '../../store/vault';
import { LIVE, toUnit } from '../../store/views/conversation-insight';

/** Grouping compares every pair of sessions: above this many the sweep leaves the stored maps as they are. */
export const MAX_THREAD_SESSIONS = 3_000;

/** Recomputes and stores every thread map; returns how many (-1: too many sessions, left as they were). */
export async function storeThreadMaps(vault: Vault, notes: readonly NoteRecord[], now: number): Promise<number> {
  const bySession = new Map<string, CandidateUnit[]>();
  for (const note of notes) {
    if (!note.conversationId || !LIVE.includes(note.status)) continue;
    const unit = toUnit(note);
    if (unit) bySession.set(note.conversationId, [...(bySession.get(note.conversationId) ?? []), unit]);
  }
  if (bySession.size > MAX_THREAD_SESSIONS) return -1;
  const conversations = await withStoreTimeout(vault.db.conversations.bulkGet([...bySession.keys()]), {
    label: 'reading conversations for thread maps',
  });
  const sessions: SessionUnits[] = [];
  for (const c of conversations) {
    if (c?.state === 'visible') sessions.push({ sessionId: c.id, title: c.title, date: c.createdAt, units: bySession.get(c.id) ?? [] });
  }
  const maps: StoredThreadMap[] = groupSessionsBySubject(sessions).map((group) => {
    const map = buildThreadMap(group);
    return { id: `thread:${[...map.sessionIds].sort()[0]}`, subject: map.subject, sessionIds: map.sessionIds, arc: map.arc, at: now };
  });
  await runTx(
    vault.db,
    'rw',
    vault.db.threadMaps,
    async () => {
      await vault.db.threadMaps.clear();
      await vault.db.threadMaps.bulkPut(maps);
    },
    { label: 'saving thread maps' },
  );
  return maps.length;
}
