/**
 * The engine's lexical searcher: our typed-array BM25+ (`Bm25Index`) over each unit's index text.
 */
import { Bm25Index, type Bm25Options } from '../../src/lib/core/index/bm25';
import type { LexicalHit, LexicalSearcher } from '../../src/lib/core/recall/ports';

export class Bm25Searcher implements LexicalSearcher {
  readonly index: Bm25Index;

  constructor(options: Partial<Bm25Options> = {}) {
    this.index = new Bm25Index(options);
  }

  get size(): number {
    return this.index.size;
  }

  add(id: string, text: string): void {
    this.index.add(id, text);
  }

  remove(id: string): boolean {
    return this.index.remove(id);
  }

  async search(query: string, k: number): Promise<LexicalHit[]> {
    if (query.trim() === '') return [];
    return this.index.search(query, k);
  }
}
