/**
 * The GLOBAL view's index (issue 12): the vault's session summaries (table `summaries`, written by
 * the extraction job), thread maps (table `threadMaps`, written by the sweep) and the entity
 * communities of the index's graph (core/graph/communities.ts; with the LLM's summary of a community
 * where one is stored for its current members, table `communitySummaries`), as structural units in a
 * keyword index of their own (core/recall/structure-units.ts). Built on the first GLOBAL or HYBRID recall;
 * when the tables or the graph have changed since, a recall is served from the index as it was while
 * a fresh one is built in the background (at most one build a minute), so no prompt waits on a
 * rebuild but the first.
 * Nothing is persisted: everything it reads is stored, and a build reads it again.
 */
import { entityCommunities } from '../../core/graph/communities';
import { communitySignature } from '../../core/graph/community-summary';
import type { CandidateRecord } from '../../core/recall/ports';
import {
  COMMUNITY_QUOTES,
  communityUnit,
  StructureIndex,
  summaryUnit,
  threadMapUnit,
  type SourceConversation,
} from '../../core/recall/structure-units';
import { yieldToEventLoop } from '../../core/jobs/yield';
import { CommunitySummariesRepo } from '../../store/community-summaries-repo';
import { withStoreTimeout } from '../../store/transaction';
import type { VaultDb } from '../../store/schema';
import type { IndexParts } from './index-parts';

/** Units indexed between two yields to the event loop. */
const BUILD_SLICE = 200;

/** Ids of structural units (never those of chunks or notes, which are `prefix_…`). */
export const STRUCTURE_ID = /^(?:summary|thread|community):/u;

/**
 * Least time between two builds, and between two looks at whether the sources changed. During a long
 * import or indexing run the documents change all the time: without it every GLOBAL or HYBRID recall
 * would start a rebuild (communities over the whole graph, every summary); with it, a unit written
 * since shows within a minute or two.
 */
export const MIN_REBUILD_MS = 60_000;

export class StructureView {
  private built: { signature: string; index: StructureIndex; checkedAt: number } | null = null;
  private building: Promise<StructureIndex> | null = null;
  /** Bumped whenever a document of the index changes (the graph changes with the documents). */
  private documentsVersion = 0;
  /**
   * Told after each build (the index worker's leader queues the LLM's community summaries from it,
   * while a model is loaded).
   */
  onBuilt: (() => void) | null = null;

  constructor(
    private readonly parts: IndexParts,
    private readonly read: (ids: readonly string[]) => Promise<CandidateRecord[]>,
    private readonly now: () => number = parts.now,
  ) {
    parts.catalog.watch(() => this.documentsVersion++);
  }

  /**
   * The index to search now: the current one; else, when one was built before, that one, while a new
   * one builds in the background (at most one build per MIN_REBUILD_MS); else a first one.
   */
  async index(): Promise<StructureIndex> {
    // Within a minute of the last build or check nothing is read: the last index serves, changed or not.
    if (this.built && this.now() - this.built.checkedAt < MIN_REBUILD_MS) return this.built.index;
    const signature = await this.signature();
    if (this.built?.signature === signature) {
      this.built.checkedAt = this.now();
      return this.built.index;
    }
    const fresh = this.rebuild(signature);
    return this.built ? this.built.index : fresh;
  }

  /** Resolves when no build is running (tests and the bench wait on it). */
  async settled(): Promise<void> {
    await this.building?.catch(() => undefined);
  }

  /**
   * The next recall looks at whether the sources changed, even within a minute of the last look (the
   * model's community summaries were just written: they show from the next build on).
   */
  recheck(): void {
    if (this.built) this.built.checkedAt = Number.NEGATIVE_INFINITY;
  }

  /** The structural units with these ids in the index as last built (pins name them across recalls). */
  get(ids: readonly string[]): CandidateRecord[] {
    return ids.flatMap((id) => this.built?.index.get(id) ?? []);
  }

  private rebuild(signature: string): Promise<StructureIndex> {
    if (this.building) return this.building;
    this.building = this.build()
      .then((index) => {
        this.built = { signature, index, checkedAt: this.now() };
        this.onBuilt?.();
        return index;
      })
      .finally(() => {
        this.building = null;
      });
    // A background rebuild that fails leaves the last index serving; the next recall tries again.
    this.building.catch(() => undefined);
    return this.building;
  }

  private async signature(): Promise<string> {
    const db = this.parts.vault.db;
    const [summaries, lastSummary, maps, lastMap, communities] = await withStoreTimeout(
      Promise.all([
        db.summaries.count(),
        db.summaries.orderBy('at').last(),
        db.threadMaps.count(),
        db.threadMaps.orderBy('at').last(),
        new CommunitySummariesRepo(db).stamp(),
      ]),
      { label: 'reading what the structural index was built from' },
    );
    return [summaries, lastSummary?.at ?? 0, maps, lastMap?.at ?? 0, communities, this.documentsVersion].join('/');
  }

  private async build(): Promise<StructureIndex> {
    const db = this.parts.vault.db;
    const [summaries, maps, written] = await withStoreTimeout(
      Promise.all([db.summaries.toArray(), db.threadMaps.toArray(), new CommunitySummariesRepo(db).all()]),
      { label: 'reading summaries and thread maps' },
    );
    const byModel = new Map(written.map((row) => [row.id, row]));
    const communities = entityCommunities(this.parts.graph);
    const wanted = [
      ...new Set([
        ...summaries.map((s) => s.conversationId),
        ...maps.flatMap((m) => m.sessionIds),
        ...communities.flatMap((c) => c.conversationIds),
      ]),
    ];
    const rows = wanted.length ? await withStoreTimeout(db.conversations.bulkGet(wanted), { label: 'reading conversations' }) : [];
    const visible = new Map<string, SourceConversation>();
    for (const c of rows) if (c?.state === 'visible') visible.set(c.id, { id: c.id, title: c.title, date: c.createdAt });
    const records: CandidateRecord[] = [];
    for (const s of summaries) {
      const conversation = visible.get(s.conversationId);
      if (conversation && s.text.trim()) records.push(summaryUnit(s, conversation));
    }
    for (const m of maps) if (m.sessionIds.some((id) => visible.has(id))) records.push(threadMapUnit(m, visible));
    // The documents a community quotes are read as recall reads them: what is no longer retrievable is left out.
    const quoted = communities.map((c) => c.docIds.slice(0, COMMUNITY_QUOTES));
    const documents = new Map((await this.read([...new Set(quoted.flat())])).map((r) => [r.id, r]));
    communities.forEach((community, i) => {
      const docs = quoted[i]!.flatMap((id) => {
        const r = documents.get(id);
        return r
          ? [{ id, text: r.text, conversationId: r.conversationId, title: r.sourceTitle, date: r.date, messageIds: r.messageIds }]
          : [];
      });
      // A community whose documents are all gone (deleted, archived) has nothing to say.
      // The model's summary serves while it was written from these members and documents.
      const stored = byModel.get(community.id);
      const summary = stored && stored.signature === communitySignature(community) ? { text: stored.text, llmId: stored.llmId } : null;
      if (docs.length > 0) records.push(communityUnit(community, docs, visible, summary));
    });
    // Indexed in slices, yielding between them: a vault of thousands of summaries must not hold the
    // worker's searches up while its structural index is rebuilt in the background.
    const index = new StructureIndex();
    for (let i = 0; i < records.length; i++) {
      index.add(records[i]!);
      if (i % BUILD_SLICE === BUILD_SLICE - 1) await yieldToEventLoop();
    }
    return index;
  }
}

/**
 * The session summaries written last (table `summaries` by `at`: the conversations extracted last,
 * which after an import are the ones it brought), of visible conversations, at most `limit`, the page
 * ordered by the conversation's date, newest first (undated last), as the structural units the GLOBAL
 * view indexes (`summary:<conversation id>`): what a prompt about the whole vault ("What did we talk
 * about?") lists (core/recall/prompt-scope.ts). Conversations are read by the summaries' own index:
 * a pasted transcript has no date, and an index on the conversations' dates would miss it.
 */
export async function newestSessionUnits(db: VaultDb, limit: number): Promise<CandidateRecord[]> {
  const out: { record: CandidateRecord; date: number | null }[] = [];
  const PAGE = Math.max(limit, 50);
  for (let offset = 0; out.length < limit; offset += PAGE) {
    const page = await withStoreTimeout(db.summaries.orderBy('at').reverse().offset(offset).limit(PAGE).toArray(), {
      label: 'reading the latest session summaries',
    });
    if (page.length === 0) break;
    const conversations = await withStoreTimeout(db.conversations.bulkGet(page.map((s) => s.conversationId)), {
      label: 'reading conversations',
    });
    page.forEach((summary, i) => {
      const c = conversations[i];
      if (c?.state === 'visible' && summary.text.trim() && out.length < limit)
        out.push({ record: summaryUnit(summary, { id: c.id, title: c.title, date: c.createdAt }), date: c.createdAt });
    });
  }
  // Undated last; the sort is stable, so equal dates keep the order the summaries were written in.
  return out.sort((a, b) => (a.date === b.date ? 0 : a.date === null ? 1 : b.date === null ? -1 : b.date - a.date)).map((x) => x.record);
}
