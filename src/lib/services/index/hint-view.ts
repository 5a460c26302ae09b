/**
 * The hints of every indexed chunk and note (core/recall/hints.ts) in their own keyword index
 * (core/recall/hint-index.ts), kept in step with the catalog: a document added or changed gets its
 * hints made again, a removed one loses them, and when extraction writes units (candidates, kept
 * notes) the chunks of their conversations are made again, since a chunk's hints read the units
 * drawn from its messages.
 *
 * Nothing is made until a recall asks for hints (they are off by default: services/recall/README.md,
 * "Hints"). Nothing is persisted: hints come from the stored documents by deterministic rules, so
 * they are made again after a load, in the background, in slices with yields between them. A search
 * never waits on that work: it reads the index as far as it is built and starts the work when some
 * is due. Tests, `engram recall --hints` and the evaluations wait with `settled()`.
 */
import type { HintUnit } from '../../core/recall/hints';
import { HINTS_PER_DOC } from '../../core/recall/hint-limits';
import { HintIndex, type HintHit } from '../../core/recall/hint-index';
import type { CandidateRecord } from '../../core/recall/ports';
import { yieldToEventLoop } from '../../core/jobs/yield';
import { analyze } from '../../core/text/analyze';
import type { NoteRecord } from '../../core/records';
import { withStoreTimeout } from '../../store/transaction';
import type { IndexParts } from './index-parts';

/** Documents made between two yields to the event loop. */
const SLICE = 256;

/** Least time between two looks at the units table started by searches (extraction writes units in the background). */
export const UNITS_LOOK_MS = 10_000;

/** Units that are not what the person's memory says (a discarded or replaced candidate). */
const UNIT_STATUS = new Set<NoteRecord['status']>(['provisional', 'kept']);

export interface HintProgress {
  /** Documents with hints made from their current text. */
  made: number;
  /** Documents the catalog holds. */
  documents: number;
  hints: number;
}

export class HintView {
  private readonly index = new HintIndex();
  /** Per document: the catalog hash its hints were made from. */
  private readonly made = new Map<string, string>();
  private readonly dirty = new Set<string>();
  private everything = true;
  private running: Promise<void> | null = null;
  /** The units table as last looked at: its count and latest update. */
  private unitsMark: { count: number; last: number } | null = null;
  /** The last search (a recall's variants that read as the same terms ask it again), valid while `version` holds. */
  private last: { key: string; version: number; hits: HintHit[] } | null = null;
  /** Bumped when the hints or the documents change. */
  private version = 0;
  /** Conversations whose units were written since their chunks' hints were made ('*': every one). */
  private pending = new Set<string>();
  /** When a search last started a run (a search looks at the units table at most every UNITS_LOOK_MS). */
  private lookedAt = -Infinity;

  constructor(
    private readonly parts: IndexParts,
    private readonly read: (ids: readonly string[]) => Promise<CandidateRecord[]>,
  ) {
    parts.catalog.watch((ids) => {
      this.version++;
      if (ids) for (const id of ids) this.dirty.add(id);
      else this.everything = true;
    });
  }

  get progress(): HintProgress {
    return { made: this.made.size, documents: this.parts.catalog.size, hints: this.index.hints };
  }

  /**
   * The best `k` documents by their best hint, from the index as far as it is built; starts due work.
   * A hint counts only when it holds a query term its document's own keyword text does not (the
   * speaker's name for "I", a verb's base form, a category's question words): a hint that says no
   * more of the prompt than the document would only lift the document by the shortness of a hint.
   */
  search(query: string, k: number): HintHit[] {
    if (this.everything || this.dirty.size > 0 || this.parts.now() - this.lookedAt >= UNITS_LOOK_MS) {
      this.lookedAt = this.parts.now();
      this.refresh();
    }
    // A prompt's variants often read as the same terms (the prompt and its unframed form): one search serves them.
    const key = `${k}\u0000${analyze(query).join(' ')}`;
    if (this.last?.key === key && this.last.version === this.version) return this.last.hits;
    const hits = this.searchUncached(query, k);
    this.last = { key, version: this.version, hits };
    return hits;
  }

  private searchUncached(query: string, k: number): HintHit[] {
    const hits = this.index.search(query, k).filter((hit) => this.parts.catalog.has(hit.id));
    const own = this.parts.bm25.explain(
      query,
      hits.map((h) => h.id),
    );
    return hits.filter((hit) => {
      const held = new Set((own.matched.get(hit.id) ?? []).map((i) => own.terms[i]!.term));
      return hit.terms.some((term) => !held.has(term));
    });
  }

  /** How many hints the index holds for a document (0: none yet, or none to make). */
  countOf(id: string): number {
    return this.index.countOf(id);
  }

  /**
   * A document's hints as the index holds them, made again from the vault (the index keeps no texts);
   * [] for a document recall cannot read. For tests and inspection: the search never reads them.
   */
  async hintsFor(id: string): Promise<string[]> {
    return (await this.hintsOfDocuments([id])).get(id) ?? [];
  }

  /** Starts making the due hints in the background (nothing when a run is going). */
  refresh(): void {
    if (this.running) return;
    this.running = this.run().finally(() => {
      this.running = null;
    });
    // A failed run leaves the hints as they were; the next search starts another.
    this.running.catch(() => undefined);
  }

  /** Resolves when every document's hints are made from its current text and units. */
  async settled(): Promise<void> {
    for (;;) {
      await this.running?.catch(() => undefined);
      if (!(await this.due())) return;
      this.refresh();
    }
  }

  private async due(): Promise<boolean> {
    await this.lookAtUnits();
    return this.everything || this.dirty.size > 0 || this.pending.size > 0;
  }

  /** Adds the conversations whose units were written since the last look to `pending`; the mark moves on. */
  private async lookAtUnits(): Promise<void> {
    const db = this.parts.vault.db;
    const [count, last] = await withStoreTimeout(Promise.all([db.notes.count(), db.notes.orderBy('updatedAt').last()]), {
      label: 'reading what the hints were made from',
    });
    const mark = { count, last: last?.updatedAt ?? 0 };
    const before = this.unitsMark;
    if (before && before.count === mark.count && before.last === mark.last) return;
    this.unitsMark = mark;
    if (!before) return; // the first look: every document is made anyway
    // A removed unit leaves no row to find by time: a smaller table remakes every conversation.
    if (mark.count < before.count) {
      this.pending.add('*');
      return;
    }
    const changed = await withStoreTimeout(db.notes.where('updatedAt').aboveOrEqual(before.last).toArray(), {
      label: 'reading new units',
    });
    for (const n of changed) if (n.conversationId) this.pending.add(n.conversationId);
  }

  private async run(): Promise<void> {
    const catalog = this.parts.catalog;
    const work = new Set<string>();
    await this.lookAtUnits();
    const conversations = this.pending;
    this.pending = new Set();
    if (this.everything || conversations.has('*')) {
      this.everything = false;
      for (const id of [...this.made.keys()]) if (!catalog.has(id)) this.forget(id);
      for (const id of catalog.ids()) {
        if (conversations.has('*') || this.made.get(id) !== catalog.get(id)!.hash) work.add(id);
      }
    } else if (conversations.size > 0) {
      for (const id of catalog.ids()) {
        const conversation = catalog.get(id)!.conversationId;
        if (conversation && conversations.has(conversation)) work.add(id);
      }
    }
    for (const id of this.dirty) {
      if (catalog.has(id)) work.add(id);
      else this.forget(id);
    }
    this.dirty.clear();
    const ids = [...work];
    for (let at = 0; at < ids.length; at += SLICE) {
      await this.make(ids.slice(at, at + SLICE));
      await yieldToEventLoop();
    }
  }

  private forget(id: string): void {
    this.version++;
    this.index.remove(id);
    this.made.delete(id);
  }

  /**
   * The hints of these documents: the model's questions where extraction stored them (a note's own, a
   * chunk's units'), then the rules' over the document's units and sentences, up to HINTS_PER_DOC.
   * Documents recall cannot read are left out.
   */
  private async hintsOfDocuments(ids: readonly string[]): Promise<Map<string, string[]>> {
    // The rules (and WordNet's verb table) load with the first hints asked for: off by default, most
    // sessions never load them.
    const { ruleHints } = await import('../../core/recall/hints');
    const db = this.parts.vault.db;
    const records = await this.read(ids);
    const messageIds = [...new Set(records.filter((r) => r.kind === 'chunk').flatMap((r) => r.messageIds))];
    const noteIds = records.filter((r) => r.kind === 'note').map((r) => r.id);
    const [units, notes] = await withStoreTimeout(
      Promise.all([
        messageIds.length ? db.notes.where('sourceMessageIds').anyOf(messageIds).toArray() : Promise.resolve([]),
        db.notes.bulkGet(noteIds),
      ]),
      { label: 'reading the units of indexed documents' },
    );
    const modelHints = new Map(notes.flatMap((n) => (n?.hints?.length ? [[n.id, n.hints] as const] : [])));
    const byMessage = new Map<string, NoteRecord[]>();
    for (const note of units) {
      if (!UNIT_STATUS.has(note.status)) continue;
      for (const m of note.sourceMessageIds) (byMessage.get(m) ?? byMessage.set(m, []).get(m)!).push(note);
    }
    const out = new Map<string, string[]>();
    for (const record of records) {
      let hints: string[];
      if (record.kind === 'note') {
        hints = [
          ...(modelHints.get(record.id) ??
            ruleHints({ text: record.text, speaker: null, category: record.category ?? null, title: record.sourceTitle })),
        ];
      } else {
        const own = [...new Set(record.messageIds.flatMap((m) => byMessage.get(m) ?? []))];
        const rules = ruleHints({
          text: record.text,
          speaker: record.speakers?.length === 1 ? record.speakers[0]! : null,
          units: own.map((n): HintUnit => ({ text: n.text, category: n.category })),
          title: record.sourceTitle,
        });
        hints = [...new Set([...own.flatMap((n) => n.hints ?? []), ...rules])];
      }
      out.set(record.id, hints.slice(0, HINTS_PER_DOC));
    }
    return out;
  }

  /** Makes the hints of these documents into the index. */
  private async make(ids: readonly string[]): Promise<void> {
    const made = await this.hintsOfDocuments(ids);
    for (const [id, hints] of made) {
      const entry = this.parts.catalog.get(id);
      if (!entry) continue;
      this.index.set(id, hints);
      this.made.set(id, entry.hash);
    }
    this.version++;
    // A document recall cannot read (its conversation hidden since) has no hints until it can.
    for (const id of ids) if (!made.has(id)) this.forget(id);
  }
}
