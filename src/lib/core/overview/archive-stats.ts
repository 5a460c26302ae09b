/**
 * The archive at a glance, from plain rows: how much per month (conversations and decisions), and
 * what it is most about (terms that recur across conversations). Pure; months are calendar months
 * in UTC so the same vault gives the same chart on every device.
 */
import { NEGATORS, STOP_WORDS, stem, tokens } from '../extract/words';

export interface MonthCount {
  /** "2024-03" */
  month: string;
  /** First instant of the month (ms, UTC). */
  start: number;
  conversations: number;
  decisions: number;
}

/** Verbs every conversation uses ("keep", "need"): frequent, but not what anything is about. */
const GENERIC = new Set([
  'keep',
  'use',
  'need',
  'make',
  'want',
  'take',
  'give',
  'know',
  'think',
  'help',
  'try',
  'look',
  'see',
  'say',
  'tell',
  'ask',
  'decided',
  'decide',
]);

const monthKey = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const monthStart = (year: number, month: number) => Date.UTC(year, month, 1);

/**
 * One entry per month from the first dated row to the last, empty months included (a gap in the
 * archive is information). Rows without a date are not placed; `undated` says how many.
 */
export function monthlyCounts(
  conversations: readonly { createdAt: number | null }[],
  decisions: readonly { createdAt: number | null }[],
): { months: MonthCount[]; undated: number } {
  const dated = [...conversations, ...decisions].map((r) => r.createdAt).filter((t): t is number => t !== null && Number.isFinite(t));
  const undated = conversations.length + decisions.length - dated.length;
  if (dated.length === 0) return { months: [], undated };
  const first = new Date(Math.min(...dated));
  const last = new Date(Math.max(...dated));
  const months: MonthCount[] = [];
  const index = new Map<string, MonthCount>();
  for (
    let y = first.getUTCFullYear(), m = first.getUTCMonth();
    y < last.getUTCFullYear() || (y === last.getUTCFullYear() && m <= last.getUTCMonth());
  ) {
    const start = monthStart(y, m);
    const entry = { month: monthKey(start), start, conversations: 0, decisions: 0 };
    months.push(entry);
    index.set(entry.month, entry);
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
  for (const c of conversations) if (c.createdAt !== null) index.get(monthKey(c.createdAt))!.conversations += 1;
  for (const d of decisions) if (d.createdAt !== null) index.get(monthKey(d.createdAt))!.decisions += 1;
  return { months, undated };
}

export interface Topic {
  /** The stem the count is over. */
  term: string;
  /** The form people wrote most often. */
  label: string;
  /** How many conversations mention it (title or kept notes). */
  conversations: number;
}

/**
 * The terms that recur across the most conversations: each conversation's title and its kept notes
 * are one document; a term counts once per document (so one long conversation cannot dominate).
 * Stop words, numbers and two-letter words are left out; a term must appear in at least two
 * conversations to be a topic.
 */
export function topTopics(documents: readonly { id: string; text: string }[], limit = 10): Topic[] {
  const documentFrequency = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  for (const doc of documents) {
    const seen = new Set<string>();
    for (const token of tokens(doc.text)) {
      if (token.length < 3 || STOP_WORDS.has(token) || NEGATORS.has(token) || GENERIC.has(token) || /^\p{N}+$/u.test(token)) continue;
      const term = stem(token);
      const counts = forms.get(term) ?? new Map<string, number>();
      counts.set(token, (counts.get(token) ?? 0) + 1);
      forms.set(term, counts);
      if (seen.has(term)) continue;
      seen.add(term);
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  return [...documentFrequency.entries()]
    .filter(([, n]) => n >= 2)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, limit)
    .map(([term, n]) => {
      const label = [...forms.get(term)!.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]![0];
      return { term, label, conversations: n };
    });
}
