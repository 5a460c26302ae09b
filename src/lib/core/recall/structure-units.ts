/**
 * The GLOBAL view's units (issue 12): session summaries, thread maps and entity-community summaries,
 * each a retrievable record of its own that names its sources. They live in their own keyword index
 * (`StructureIndex`), apart from chunks and notes: a GLOBAL or HYBRID prompt searches it beside the
 * chunks, and what it finds is packed as a Structural item whose sources the person can open
 * (recall.ts, `withStructure`). The texts are the stored session summaries (the LLM's or extractive,
 * extract/summary.ts), the sweep's thread maps, and for a community the LLM's summary when one is
 * stored for its members (core/graph/community-summary.ts), else an extractive one drawn here.
 *
 * Text shape: one overview line, then the detail lines indented, so the budget's "cut a Structural
 * item to its first level" (first-level.ts) keeps the overview and drops the detail.
 */
import type { EntityCommunity } from '../graph/communities';
import { Bm25Index } from '../index/bm25';
import type { StoredThreadMap } from '../records';
import { analyze } from '../text/analyze';
import { formatDate } from './package-format';
import type { CandidateRecord, StructureSource } from './ports';

export type StructureKind = NonNullable<CandidateRecord['structure']>['kind'];

/** Enough of a conversation to name it as a source. */
export interface SourceConversation {
  id: string;
  title: string | null;
  date: number | null;
}

/** One document a community's summary may quote. */
export interface CommunityDocument {
  id: string;
  text: string;
  conversationId: string | null;
  title: string | null;
  date: number | null;
  messageIds: readonly string[];
}

/** Detail lines a community summary quotes, at most. */
export const COMMUNITY_QUOTES = 4;
/** Words a quoted line keeps, at most. */
const QUOTE_WORDS = 30;
/** Entity names the overview line lists before "and N more". */
const NAMES_SHOWN = 6;

function structureRecord(
  id: string,
  kind: StructureKind,
  title: string,
  text: string,
  sources: StructureSource[],
  messageIds: string[],
  date: number | null,
  summarizedBy: string | null = null,
): CandidateRecord {
  return {
    id,
    kind: 'structure',
    text,
    tier: 'chat',
    createdAt: date ?? 0,
    accessCount: 0,
    lastAccessedAt: null,
    conversationId: sources.length === 1 ? sources[0]!.conversationId : null,
    sourceTitle: title,
    date,
    messageIds,
    contentHash: `${kind}:${id}:${text.length}`,
    headingPath: [],
    tokenCount: 0,
    pinned: false,
    structure: { kind, sources, ...(summarizedBy ? { summarizedBy } : {}) },
  };
}

const sourceOf = (c: SourceConversation): StructureSource => ({ conversationId: c.id, title: c.title, date: c.date });

/** A session summary (stored by the extraction job) as a unit: `summary:<conversation id>`. */
export function summaryUnit(summary: { conversationId: string; text: string }, conversation: SourceConversation): CandidateRecord {
  const title = conversation.title ?? 'Untitled conversation';
  const text = `Summary of "${title}" (${formatDate(conversation.date)}):\n  ${summary.text.trim()}`;
  return structureRecord(
    `summary:${summary.conversationId}`,
    'summary',
    `Summary: ${title}`,
    text,
    [sourceOf(conversation)],
    [],
    conversation.date,
  );
}

/** A thread map (the arc of one subject across sessions, stored by the sweep) as a unit. */
export function threadMapUnit(map: StoredThreadMap, conversations: ReadonlyMap<string, SourceConversation>): CandidateRecord {
  // Sessions no longer visible (deleted, hidden) are not named as sources.
  const sessions = map.sessionIds.flatMap((id) => conversations.get(id) ?? []);
  const dates = sessions.map((s) => s.date).filter((d): d is number => d !== null);
  const span = dates.length ? `${formatDate(Math.min(...dates))} to ${formatDate(Math.max(...dates))}` : 'undated';
  const subject = map.subject.join(', ');
  const lines = map.arc.map((step) => {
    const was = step.replaces ? ` (was: ${step.replaces.text})` : '';
    return `  - ${step.stage} ${formatDate(step.date)}: ${step.text}${was}`;
  });
  const text = [`Thread on ${subject} across ${sessions.length} sessions, ${span}.`, ...lines].join('\n');
  return structureRecord(
    map.id,
    'thread-map',
    `Thread: ${subject}`,
    text,
    sessions.map(sourceOf),
    [...new Set(map.arc.flatMap((s) => s.sourceMessageIds))],
    dates.length ? Math.max(...dates) : null,
  );
}

function firstWords(text: string, n: number): string {
  const words = text.replace(/\s+/gu, ' ').trim().split(' ');
  return words.length <= n ? words.join(' ') : `${words.slice(0, n).join(' ')} …`;
}

/** The sentence of `text` naming the most of `names` (the first such), else its opening. */
function quotedSentence(text: string, names: readonly string[]): string {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/u).filter((s) => s.trim().length > 0);
  let best = sentences[0] ?? text;
  let most = 0;
  for (const s of sentences) {
    const lower = s.toLowerCase();
    const n = names.filter((name) => lower.includes(name)).length;
    if (n > most) [best, most] = [s, n];
  }
  return firstWords(best, QUOTE_WORDS);
}

/**
 * A community of entities as a unit: who and what is named together, in which conversations (those
 * of `conversations` it names: the visible ones), and the lines that name the most of them (from
 * `documents`, the community's best documents first). With `summary` (the LLM's, written from these
 * members and documents: core/graph/community-summary.ts) the overview line ends with it, so a
 * package cut to overview lines keeps it.
 */
export function communityUnit(
  community: EntityCommunity,
  documents: readonly CommunityDocument[],
  conversations: ReadonlyMap<string, SourceConversation>,
  summary: { text: string; llmId: string } | null = null,
): CandidateRecord {
  const names = community.entities.map((e) => e.name);
  const keys = community.entities.map((e) => e.id);
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  const quoted = documents.slice(0, COMMUNITY_QUOTES);
  const sources = community.conversationIds.flatMap((id) => {
    const c = conversations.get(id);
    return c ? [sourceOf(c)] : [];
  });
  const titles = sources.slice(0, 3).map((c) => c.title ?? 'Untitled');
  const where = sources.length
    ? ` in ${sources.length} conversation${sources.length === 1 ? '' : 's'} (${titles.join('; ')}${sources.length > 3 ? '; …' : ''})`
    : '';
  const head = `Named together: ${names.slice(0, NAMES_SHOWN).join(', ')}${more}${where}.${summary ? ` ${summary.text.replace(/\s+/gu, ' ').trim()}` : ''}`;
  const lines = quoted.map((d) => `  - ${quotedSentence(d.text, keys)} (${d.title ?? 'untitled'}, ${formatDate(d.date)})`);
  const dates = [...documents.map((d) => d.date), ...sources.map((c) => c.date)].filter((d): d is number => d !== null);
  return structureRecord(
    community.id,
    'community',
    `Community: ${names.slice(0, 3).join(', ')}`,
    [head, ...lines].join('\n'),
    sources,
    [...new Set(quoted.flatMap((d) => d.messageIds))],
    dates.length ? Math.max(...dates) : null,
    summary?.llmId ?? null,
  );
}

/** A structural unit found for a prompt: its record, its BM25 score, and its index terms. */
export interface StructureHit {
  record: CandidateRecord;
  score: number;
  terms: ReadonlySet<string>;
}

/** The structural units in a keyword index of their own (title and text, the vault's analyzer). */
export class StructureIndex {
  private readonly bm25 = new Bm25Index();
  private readonly units = new Map<string, { record: CandidateRecord; terms: ReadonlySet<string> }>();

  constructor(records: readonly CandidateRecord[] = []) {
    for (const record of records) this.add(record);
  }

  add(record: CandidateRecord): void {
    const tokens = analyze(`${record.sourceTitle ?? ''}\n${record.text}`);
    this.bm25.addTerms(record.id, tokens);
    this.units.set(record.id, { record, terms: new Set(tokens) });
  }

  get size(): number {
    return this.units.size;
  }

  counts(): Record<StructureKind, number> {
    const out: Record<StructureKind, number> = { summary: 0, 'thread-map': 0, community: 0 };
    for (const { record } of this.units.values()) out[record.structure!.kind]++;
    return out;
  }

  get(id: string): CandidateRecord | null {
    return this.units.get(id)?.record ?? null;
  }

  search(prompt: string, k: number): StructureHit[] {
    return this.bm25.search(prompt, k).map((hit) => {
      const unit = this.units.get(hit.id)!;
      return { record: unit.record, score: hit.score, terms: unit.terms };
    });
  }
}
