import type { StoredSummary } from '../../core/api/extract-api';
import { buildThreadMap, groupSessionsBySubject, type SessionUnits, type ThreadMap } from '../../core/extract/thread-map';
import { CATEGORIES, UNIT_KINDS, type CandidateUnit, type Category, type UnitKind } from '../../core/extract/units';
import type { NoteRecord } from '../../core/records';
import { readSummary } from '../summaries-repo';
import { withStoreTimeout } from '../transaction';
import type { Vault } from '../vault';

/** The session summary of one conversation and the thread it belongs to across sessions. */
export interface ConversationInsight {
  summary: StoredSummary | null;
  /** The arc across the conversations on the same subject (null when no other session shares it). */
  thread: TitledThread | null;
}

/** Notes that speak for a session's thinking: candidates still in review and kept engrams. */
export const LIVE: NoteRecord['status'][] = ['provisional', 'kept'];

/** A live note as the extraction unit thread maps are built from (null for a category no unit has). */
export function toUnit(note: NoteRecord): CandidateUnit | null {
  if (!(CATEGORIES as readonly string[]).includes(note.category)) return null;
  const kind = note.review?.kind;
  return {
    kind: (UNIT_KINDS as readonly string[]).includes(kind ?? '') ? (kind as UnitKind) : 'claim',
    category: note.category as Category,
    text: note.text,
    sourceMessageIds: note.sourceMessageIds,
    repairs: [],
  };
}

/** Every visible conversation that has live notes, as a session of extracted units. */
async function liveSessions(vault: Vault): Promise<SessionUnits[]> {
  const notes = await withStoreTimeout(vault.db.notes.where('status').anyOf(LIVE).toArray(), { label: 'reading notes for the thread map' });
  const bySession = new Map<string, CandidateUnit[]>();
  for (const note of notes) {
    const unit = note.conversationId ? toUnit(note) : null;
    if (unit) bySession.set(note.conversationId!, [...(bySession.get(note.conversationId!) ?? []), unit]);
  }
  if (bySession.size === 0) return [];
  const conversations = await withStoreTimeout(vault.db.conversations.bulkGet([...bySession.keys()]), {
    label: 'reading conversations for the thread map',
  });
  const sessions: SessionUnits[] = [];
  for (const conversation of conversations) {
    if (!conversation || conversation.state !== 'visible') continue;
    sessions.push({
      sessionId: conversation.id,
      title: conversation.title,
      date: conversation.createdAt ?? null,
      units: bySession.get(conversation.id) ?? [],
    });
  }
  return sessions;
}

export type TitledThread = ThreadMap & { titles: Record<string, string> };

const titled = (group: readonly SessionUnits[]): TitledThread => ({
  ...buildThreadMap(group),
  titles: Object.fromEntries(group.map((s) => [s.sessionId, s.title])),
});

/**
 * Reads the summary the extraction job stored for `conversationId` and builds the thread map of the
 * sessions that share its subject (core `groupSessionsBySubject` over the extracted units of every
 * visible conversation, then `buildThreadMap` over its group), so the arc is always current with
 * what the person kept, edited or discarded.
 */
export async function conversationInsight(vault: Vault, conversationId: string): Promise<ConversationInsight> {
  const summary = await readSummary(vault.db, conversationId);
  const sessions = await liveSessions(vault);
  if (!sessions.some((s) => s.sessionId === conversationId)) return { summary, thread: null };
  const group = groupSessionsBySubject(sessions).find((g) => g.some((s) => s.sessionId === conversationId));
  return { summary, thread: group ? titled(group) : null };
}

/** Every subject that runs across two or more sessions, with its thread map (Overview screen). */
export async function subjectThreads(vault: Vault): Promise<TitledThread[]> {
  return groupSessionsBySubject(await liveSessions(vault)).map(titled);
}
