import { detectConflict } from '../curate/contradiction';
import type { CandidateUnit } from './units';
import { contentWords, contentWordSet, jaccard, overlapCoefficient } from './words';

/**
 * The thread map: across sessions on the same subject, the arc of the thinking, dated: what was
 * proposed, what changed (a later unit contradicting an earlier one), what was decided, and
 * which questions were left open (no later decision or fact answers them).
 */
export interface SessionUnits {
  sessionId: string;
  title: string;
  date: number | null;
  units: readonly CandidateUnit[];
}

export type ArcStage = 'proposed' | 'changed' | 'decided' | 'left-open';

export interface ArcEntry {
  stage: ArcStage;
  text: string;
  sessionId: string;
  date: number | null;
  sourceMessageIds: string[];
  /** For `changed`: the earlier statement it replaces. */
  replaces: { text: string; sessionId: string; date: number | null } | null;
}

export interface ThreadMap {
  /** The most frequent shared terms (stems): what the thread is about. */
  subject: string[];
  sessionIds: string[];
  arc: ArcEntry[];
}

function sessionTerms(session: SessionUnits): Set<string> {
  return contentWordSet(`${session.title} ${session.units.map((u) => u.text).join(' ')}`);
}

/** Sessions grouped by subject (single link on the Jaccard of their terms); only groups of two or more form threads. */
export function groupSessionsBySubject(sessions: readonly SessionUnits[], threshold = 0.2): SessionUnits[][] {
  const terms = sessions.map(sessionTerms);
  const group = sessions.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i] ?? i)));
  for (let i = 0; i < sessions.length; i += 1) {
    for (let j = i + 1; j < sessions.length; j += 1) {
      if (jaccard(terms[i] ?? new Set(), terms[j] ?? new Set()) >= threshold) group[root(i)] = root(j);
    }
  }
  const groups = new Map<number, SessionUnits[]>();
  sessions.forEach((s, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), s]));
  return [...groups.values()].filter((g) => g.length > 1);
}

const byDate = (a: SessionUnits, b: SessionUnits): number => (a.date ?? 0) - (b.date ?? 0);
/** A decision that swaps one term of an earlier proposal or decision changes it. */
const SWAPPABLE = new Set(['Decisions', 'Ideas', 'Provisional/Exploratory']);
const CHANGEABLE = new Set(['Decisions', 'Constraints', 'Facts', 'Ideas', 'Provisional/Exploratory']);

export function buildThreadMap(sessions: readonly SessionUnits[]): ThreadMap {
  const ordered = [...sessions].sort(byDate);
  const arc: ArcEntry[] = [];
  const earlier: { unit: CandidateUnit; session: SessionUnits }[] = [];
  const entry = (stage: ArcStage, unit: CandidateUnit, session: SessionUnits, replaces: ArcEntry['replaces'] = null): ArcEntry => ({
    stage,
    text: unit.text,
    sessionId: session.sessionId,
    date: session.date,
    sourceMessageIds: unit.sourceMessageIds,
    replaces,
  });

  for (const session of ordered) {
    for (const unit of session.units) {
      const previous = CHANGEABLE.has(unit.category)
        ? earlier.find(
            (e) =>
              e.session !== session &&
              detectConflict(e.unit.text, unit.text, { slotSwap: unit.category === 'Decisions' && SWAPPABLE.has(e.unit.category) }),
          )
        : undefined;
      if (previous)
        arc.push(
          entry('changed', unit, session, { text: previous.unit.text, sessionId: previous.session.sessionId, date: previous.session.date }),
        );
      if (unit.category === 'Decisions') arc.push(entry('decided', unit, session));
      else if (!previous && (unit.category === 'Ideas' || unit.category === 'Provisional/Exploratory'))
        arc.push(entry('proposed', unit, session));
      earlier.push({ unit, session });
    }
  }

  ordered.forEach((session, index) => {
    for (const unit of session.units.filter((u) => u.category === 'Open Questions')) {
      const question = contentWordSet(unit.text);
      const answered = ordered
        .slice(index)
        .flatMap((s) => s.units)
        .some((u) => (u.category === 'Decisions' || u.category === 'Facts') && overlapCoefficient(question, contentWordSet(u.text)) >= 0.5);
      if (!answered) arc.push(entry('left-open', unit, session));
    }
  });

  const counts = new Map<string, number>();
  for (const s of ordered) for (const w of new Set(s.units.flatMap((u) => contentWords(u.text)))) counts.set(w, (counts.get(w) ?? 0) + 1);
  const subject = [...counts.entries()]
    .filter(([, n]) => n > 1)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([w]) => w);
  const order = new Map(ordered.map((s, i) => [s.sessionId, i]));
  arc.sort((a, b) => (order.get(a.sessionId) ?? 0) - (order.get(b.sessionId) ?? 0));
  return { subject, sessionIds: ordered.map((s) => s.sessionId), arc };
}
