/**
 * The hints' own keyword index (hints.ts): each hint a BM25 document `parent␟n`, searched for a
 * prompt and folded to parents, each at its best hint. A parent's hints are replaced together. The
 * hints' texts are not kept (at 300k chunks they would be some 770k strings, a hundred megabytes and
 * more): a hit says which of the parent's hints matched and which of the query's terms it holds.
 */
import { Bm25Index } from '../index/bm25';

export interface HintHit {
  /** The chunk or note the hint belongs to. */
  id: string;
  score: number;
  /** Which of the parent's hints matched best (0-based, in the order they were set). */
  n: number;
  /** The query's index terms that hint holds. */
  terms: string[];
}

const SEP = '\u241f';

/** Distinct query terms a hint must hold to count (hint-index.ts `search`; measured: services/recall/README.md). */
export const MIN_HINT_TERMS = 2;

/** Hints read per parent asked: a parent's five hints can fill the head of the list. */
const OVERREAD = 2;

export class HintIndex {
  private readonly bm25 = new Bm25Index();
  /** How many hints each parent has. */
  private readonly byParent = new Map<string, number>();

  /** Parents that have hints. */
  get size(): number {
    return this.byParent.size;
  }

  /** Hints held in all. */
  get hints(): number {
    return this.bm25.size;
  }

  /** How many hints `parent` has (0: none). */
  countOf(parent: string): number {
    return this.byParent.get(parent) ?? 0;
  }

  /** Replaces `parent`'s hints (none: it leaves the index). */
  set(parent: string, hints: readonly string[]): void {
    this.remove(parent);
    if (hints.length === 0) return;
    hints.forEach((hint, n) => this.bm25.add(`${parent}${SEP}${n}`, hint));
    this.byParent.set(parent, hints.length);
  }

  remove(parent: string): void {
    const count = this.byParent.get(parent);
    if (!count) return;
    for (let n = 0; n < count; n++) this.bm25.remove(`${parent}${SEP}${n}`);
    this.byParent.delete(parent);
  }

  /**
   * The best `k` parents for the query, each at its best hint's score, best first. A hint counts
   * only when it holds at least `minTerms` of the query's distinct terms (fewer when the query has
   * fewer): a short hint matching one word outranks every long document that holds it, and says
   * nothing the document's own text did not.
   */
  search(query: string, k: number, minTerms = MIN_HINT_TERMS): HintHit[] {
    if (k <= 0) return [];
    const out: HintHit[] = [];
    const seen = new Set<string>();
    const hits = this.bm25.search(query, k * OVERREAD);
    const explained = this.bm25.explain(
      query,
      hits.map((h) => h.id),
    );
    const need = Math.min(minTerms, explained.terms.filter((t) => t.df > 0).length);
    for (const hit of hits) {
      const held = explained.matched.get(hit.id) ?? [];
      if (held.length < need) continue;
      const at = hit.id.lastIndexOf(SEP);
      const parent = hit.id.slice(0, at);
      if (seen.has(parent)) continue;
      seen.add(parent);
      out.push({
        id: parent,
        score: hit.score,
        n: Number(hit.id.slice(at + 1)),
        terms: held.map((i) => explained.terms[i]!.term),
      });
      if (out.length >= k) break;
    }
    return out;
  }
}
