import { NEAR_DUPLICATE_THRESHOLD, termSimilarity } from '../../core/curate/similarity';
import type { NeighbourSource } from './extract-job';
import type { IndexService } from '../index/index-service';

/**
 * The decision stage's neighbours from the index: BM25 finds notes that share words with the
 * candidate, the serving embedder's vectors give their similarity (the threshold follows the
 * embedder's kind). Notes the vectors do not cover yet get their term overlap instead.
 */
export function indexNeighbours(service: IndexService): NeighbourSource {
  return {
    async similar(text, k) {
      const hits = await service.lexicalSearch(text, 25);
      const rows = await service.parts.vault.db.notes.bulkGet(hits.map((h) => h.id));
      const notes = rows.filter((n) => n !== undefined && n.tier !== 'resource' && n.tier !== 'web').map((n) => n!);
      if (notes.length === 0) return [];
      const vector = await service.embedQuery(text).catch(() => null);
      const similarity = vector
        ? await service.similarity(
            vector,
            notes.map((n) => n.id),
          )
        : new Map<string, number>();
      return notes
        .map((n) => ({ id: n.id, similarity: similarity.get(n.id) ?? termSimilarity(text, n.text) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, k);
    },
    threshold: () =>
      service.parts.indexes.serving.choice.kind === 'lexical' ? NEAR_DUPLICATE_THRESHOLD.lexical : NEAR_DUPLICATE_THRESHOLD.neural,
  };
}
