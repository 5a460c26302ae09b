/**
 * The entity graph in memory: which documents (chunks, notes) mention which entities, and the
 * entities' co-occurrence edges (two entities named in one document). Kept current document by
 * document (`set` / `remove`), so the index job updates it with the chunks. An entity counts once
 * the vault names it in two documents (once at least inside a sentence: a capitalized first word is
 * a name only if the vault also writes it mid-sentence) or it speaks; others are kept, not linked.
 *
 * The walk: personalized PageRank (damping 0.85) over the bipartite document-entity graph, seeded
 * by the prompt's entities, a few power-iteration steps; a document's score is where the walk
 * rests. Hubs (entities above the 90th percentile of mention counts) pass the walk on like any
 * other, and the hub dampening (dampening.ts) reads their counts.
 */
import type { EntityMention } from './entity-linker';

export const PPR = { damping: 0.85, steps: 4 } as const;

/**
 * The graph's state as plain data, to be saved and read back whole (a load then links nothing).
 * `entities` in the graph's order; each document's `refs` index them, `~i` (negative) where the
 * document names the entity only as a sentence's first word.
 */
export interface GraphSnapshot {
  entities: [key: string, name: string, kind: EntityMention['kind']][];
  docs: [docId: string, conversationId: string | null, refs: number[]][];
}

/** The walk's view of the graph (EntityGraph.walkIndex). */
interface WalkIndex {
  /** Linked entities by key, numbered in the graph's order. */
  entityIndex: Map<string, number>;
  entityCount: number;
  /** Entity e's documents are entityDocs[entityDocStart[e] .. entityDocStart[e + 1]). */
  entityDocStart: Int32Array;
  entityDocs: Int32Array;
  docIds: string[];
  /** Document i's linked entities are docEntities[docEntityStart[i] .. docEntityStart[i + 1]). */
  docEntityStart: Int32Array;
  docEntities: Int32Array;
}

interface EntityNode {
  key: string;
  name: string;
  kind: EntityMention['kind'];
  docs: Set<string>;
  /** Documents that write it inside a sentence (not only as a sentence's first word). */
  confirmed: Set<string>;
}

/**
 * The `k` best of `docs`, best first: higher rank, then the smaller id (the order a full sort gives).
 * A walk from a speaker reaches nearly every document, and sorting them all took most of its time.
 */
function topDocuments(docs: readonly number[], rank: Float64Array, ids: readonly string[], k: number): number[] {
  const before = (a: number, b: number) => rank[a]! > rank[b]! || (rank[a] === rank[b] && ids[a]! < ids[b]!);
  if (k <= 0) return [];
  if (k * 4 >= docs.length) return [...docs].sort((a, b) => (before(a, b) ? -1 : 1)).slice(0, k);
  const best: number[] = [];
  for (const doc of docs) {
    if (best.length === k && !before(doc, best[k - 1]!)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(best[mid]!, doc)) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, doc);
    if (best.length > k) best.pop();
  }
  return best;
}

export class EntityGraph {
  private readonly entities = new Map<string, EntityNode>();
  private readonly docs = new Map<string, string[]>();
  /** The conversation each document belongs to (absent: a document of its own, e.g. a pasted resource). */
  private readonly conversationOf = new Map<string, string>();
  private p90Cache: number | null = null;
  /** The walk's arrays, made on the first walk after a change (`walkIndex`). */
  private walkCache: WalkIndex | null = null;

  get documentCount(): number {
    return this.docs.size;
  }

  get entityCount(): number {
    let n = 0;
    for (const e of this.entities.values()) if (this.linked(e)) n++;
    return n;
  }

  /** Forgets everything (a load reads the graph again from the tables). */
  clear(): void {
    this.entities.clear();
    this.docs.clear();
    this.conversationOf.clear();
    this.p90Cache = null;
    this.walkCache = null;
  }

  /** The mentions of one document (of `conversationId`, when it has one), replacing what it had. */
  set(docId: string, mentions: readonly EntityMention[], conversationId: string | null = null): void {
    this.remove(docId);
    if (mentions.length === 0) return;
    if (conversationId) this.conversationOf.set(docId, conversationId);
    const keys: string[] = [];
    for (const m of mentions) {
      let node = this.entities.get(m.key);
      if (!node) {
        node = { key: m.key, name: m.name, kind: m.kind, docs: new Set(), confirmed: new Set() };
        this.entities.set(m.key, node);
      }
      if (m.kind === 'person') node.kind = 'person';
      node.docs.add(docId);
      if (!m.opening) node.confirmed.add(docId);
      keys.push(m.key);
    }
    this.docs.set(docId, keys);
    this.p90Cache = null;
    this.walkCache = null;
  }

  /** The documents `include` accepts and the entities they name, in the graph's own order. */
  snapshot(include: (docId: string) => boolean = () => true): GraphSnapshot {
    const kept = [...this.docs].filter(([docId]) => include(docId));
    const named = new Set(kept.flatMap(([, keys]) => keys));
    const index = new Map<string, number>();
    const entities: GraphSnapshot['entities'] = [];
    for (const node of this.entities.values()) {
      if (!named.has(node.key)) continue;
      index.set(node.key, entities.length);
      entities.push([node.key, node.name, node.kind]);
    }
    const docs: GraphSnapshot['docs'] = kept.map(([docId, keys]) => [
      docId,
      this.conversationOf.get(docId) ?? null,
      keys.map((key) => {
        const i = index.get(key)!;
        return this.entities.get(key)!.confirmed.has(docId) ? i : ~i;
      }),
    ]);
    return { entities, docs };
  }

  /**
   * Holds exactly what `snapshot` saved, replacing everything: the same entities in the same order,
   * with the same names and kinds, and each document's mentions. Throws on a damaged snapshot (a
   * reference out of range, or a malformed entry), leaving the graph empty.
   */
  restore(snapshot: GraphSnapshot): void {
    this.clear();
    try {
      const nodes = snapshot.entities.map(([key, name, kind]) => {
        const node: EntityNode = { key, name, kind, docs: new Set(), confirmed: new Set() };
        this.entities.set(key, node);
        return node;
      });
      for (const [docId, conversationId, refs] of snapshot.docs) {
        const keys: string[] = [];
        for (const ref of refs) {
          const node = nodes[ref < 0 ? ~ref : ref];
          if (!node) throw new Error(`the saved entity graph names entity ${ref < 0 ? ~ref : ref} of ${nodes.length}`);
          node.docs.add(docId);
          if (ref >= 0) node.confirmed.add(docId);
          keys.push(node.key);
        }
        this.docs.set(docId, keys);
        if (conversationId) this.conversationOf.set(docId, conversationId);
      }
      for (const node of nodes) if (node.docs.size === 0) this.entities.delete(node.key);
    } catch (error) {
      this.clear();
      throw error;
    }
    this.p90Cache = null;
    this.walkCache = null;
  }

  remove(docId: string): void {
    const keys = this.docs.get(docId);
    if (!keys) return;
    for (const key of keys) {
      const node = this.entities.get(key);
      node?.docs.delete(docId);
      node?.confirmed.delete(docId);
      if (node && node.docs.size === 0) this.entities.delete(key);
    }
    this.docs.delete(docId);
    this.conversationOf.delete(docId);
    this.p90Cache = null;
    this.walkCache = null;
  }

  /**
   * The linked entities the vault names in the most conversations (a document without one counts as
   * its own), most first, ties by mentions then name; at most `limit`.
   */
  top(limit: number): { id: string; name: string; kind: EntityMention['kind']; conversations: number; mentions: number }[] {
    const ranked: { id: string; name: string; kind: EntityMention['kind']; conversations: number; mentions: number }[] = [];
    for (const node of this.entities.values()) {
      if (!this.linked(node)) continue;
      const conversations = new Set([...node.docs].map((doc) => this.conversationOf.get(doc) ?? `doc:${doc}`));
      ranked.push({ id: node.key, name: node.name, kind: node.kind, conversations: conversations.size, mentions: node.docs.size });
    }
    return ranked
      .sort((a, b) => b.conversations - a.conversations || b.mentions - a.mentions || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(0, limit));
  }

  /** A speaker, or a name the vault writes in two documents, once at least inside a sentence. */
  private linked(node: EntityNode): boolean {
    return node.kind === 'person' || (node.docs.size >= 2 && node.confirmed.size >= 1);
  }

  /** Entities a document links to, with their mention counts. */
  entitiesOf(docId: string): { id: string; name: string; kind: EntityMention['kind']; mentions: number }[] {
    return (this.docs.get(docId) ?? []).flatMap((key) => {
      const node = this.entities.get(key);
      return node && this.linked(node) ? [{ id: key, name: node.name, kind: node.kind, mentions: node.docs.size }] : [];
    });
  }

  /** The conversation a document belongs to; null for a document of its own. */
  conversationOfDoc(docId: string): string | null {
    return this.conversationOf.get(docId) ?? null;
  }

  /** Documents that mention an entity. */
  documentsOf(key: string): string[] {
    return [...(this.entities.get(key.toLowerCase())?.docs ?? [])];
  }

  entity(key: string): { id: string; name: string; kind: EntityMention['kind']; mentions: number } | null {
    const node = this.entities.get(key.toLowerCase());
    return node && this.linked(node) ? { id: node.key, name: node.name, kind: node.kind, mentions: node.docs.size } : null;
  }

  /** Entities named with `key` in a document, by how often (co-occurrence edges). */
  neighbours(key: string, limit = 20): { id: string; name: string; weight: number }[] {
    const counts = new Map<string, number>();
    for (const doc of this.entities.get(key.toLowerCase())?.docs ?? []) {
      for (const other of this.docs.get(doc) ?? []) if (other !== key) counts.set(other, (counts.get(other) ?? 0) + 1);
    }
    return [...counts]
      .filter(([k]) => this.linked(this.entities.get(k)!))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([id, weight]) => ({ id, name: this.entities.get(id)!.name, weight }));
  }

  /**
   * The co-occurrence graph of the linked entities: each entity with its documents, and one edge per
   * pair named together, weighted by how many documents name both. Entities in more than `hubShare`
   * of the documents and in more than `minHubDocs` (a transcript's speakers, named by every turn)
   * are left out: they would tie every subject to every other. A document naming more than `maxPerDoc` linked entities adds
   * edges between its first `maxPerDoc` only (a list of fifty names is not fifty squared ties).
   */
  cooccurrence(options: { hubShare?: number; minHubDocs?: number; maxPerDoc?: number } = {}): {
    entities: { id: string; name: string; kind: EntityMention['kind']; docs: readonly string[] }[];
    edges: [a: string, b: string, weight: number][];
  } {
    const hubLine = Math.max((options.hubShare ?? 0.2) * this.docs.size, options.minHubDocs ?? 5);
    const maxPerDoc = options.maxPerDoc ?? 12;
    const kept = new Map<string, EntityNode>();
    for (const node of this.entities.values()) if (this.linked(node) && node.docs.size <= hubLine) kept.set(node.key, node);
    const weights = new Map<string, number>();
    for (const keys of this.docs.values()) {
      const named = [...new Set(keys.filter((k) => kept.has(k)))].slice(0, maxPerDoc).sort();
      for (let i = 0; i < named.length; i++) {
        for (let j = i + 1; j < named.length; j++) {
          const pair = `${named[i]}\u0000${named[j]}`;
          weights.set(pair, (weights.get(pair) ?? 0) + 1);
        }
      }
    }
    return {
      entities: [...kept.values()].map((n) => ({ id: n.key, name: n.name, kind: n.kind, docs: [...n.docs] })),
      edges: [...weights].map(([pair, weight]) => {
        const [a, b] = pair.split('\u0000') as [string, string];
        return [a, b, weight];
      }),
    };
  }

  /** The 90th percentile of linked entities' mention counts (the hub line). */
  p90(): number {
    if (this.p90Cache !== null) return this.p90Cache;
    const counts = [...this.entities.values()]
      .filter((e) => this.linked(e))
      .map((e) => e.docs.size)
      .sort((a, b) => a - b);
    this.p90Cache = counts.length === 0 ? Infinity : counts[Math.min(counts.length - 1, Math.ceil(0.9 * counts.length) - 1)]!;
    return this.p90Cache;
  }

  /** The linked entities among `keys` (the prompt's mentions). */
  seeds(keys: readonly string[]): string[] {
    return keys.filter((k) => {
      const node = this.entities.get(k);
      return node !== undefined && this.linked(node);
    });
  }

  /**
   * Personalized PageRank from the seed entities over the document-entity graph; the documents'
   * scores, best first (at most `k`). Each step: rank flows from entities to their documents and
   * back, split evenly; (1 - damping) returns to the seeds.
   */
  walk(seedKeys: readonly string[], k: number, options: { damping?: number; steps?: number } = {}): { id: string; score: number }[] {
    const seeds = this.seeds(seedKeys);
    if (seeds.length === 0) return [];
    const d = options.damping ?? PPR.damping;
    const steps = options.steps ?? PPR.steps;
    const ix = this.walkIndex();
    // Ranks live in typed arrays; the order lists keep the order in which a document or an entity
    // first took rank, and every sum is made in that order, so the scores are the ones a walk over
    // maps would give, to the last bit (a differential test holds them equal).
    const start = 1 / seeds.length;
    const restart = [...new Set(seeds.map((key) => ix.entityIndex.get(key)!))];
    let entityRank = new Float64Array(ix.entityCount);
    let entityOrder = restart;
    for (const e of restart) entityRank[e] = start;
    const docRank = new Float64Array(ix.docIds.length);
    const docStamp = new Int32Array(ix.docIds.length);
    const entityStamp = new Int32Array(ix.entityCount);
    let docOrder: number[] = [];
    for (let step = 1; step <= steps; step++) {
      docOrder = [];
      for (const e of entityOrder) {
        const from = ix.entityDocStart[e]!;
        const to = ix.entityDocStart[e + 1]!;
        const share = entityRank[e]! / (to - from);
        for (let j = from; j < to; j++) {
          const doc = ix.entityDocs[j]!;
          if (docStamp[doc] !== step) {
            docStamp[doc] = step;
            docRank[doc] = 0;
            docOrder.push(doc);
          }
          docRank[doc] = docRank[doc]! + share;
        }
      }
      const next = new Float64Array(ix.entityCount);
      const nextOrder: number[] = [];
      for (const e of restart) {
        entityStamp[e] = step;
        next[e] = (1 - d) * start;
        nextOrder.push(e);
      }
      for (const doc of docOrder) {
        const from = ix.docEntityStart[doc]!;
        const to = ix.docEntityStart[doc + 1]!;
        const share = (d * docRank[doc]!) / (to - from);
        for (let j = from; j < to; j++) {
          const e = ix.docEntities[j]!;
          if (entityStamp[e] !== step) {
            entityStamp[e] = step;
            nextOrder.push(e);
          }
          next[e] = next[e]! + share;
        }
      }
      entityRank = next;
      entityOrder = nextOrder;
    }
    return topDocuments(docOrder, docRank, ix.docIds, k).map((doc) => ({ id: ix.docIds[doc]!, score: docRank[doc]! }));
  }

  /**
   * The graph as the walk reads it, made once per change: the linked entities' documents and each
   * document's linked entities (a document that names one twice lists it twice, as its mentions do),
   * as offsets into flat arrays.
   */
  private walkIndex(): WalkIndex {
    if (this.walkCache) return this.walkCache;
    const docIds = [...this.docs.keys()];
    const docIndex = new Map(docIds.map((id, i) => [id, i]));
    const entityIndex = new Map<string, number>();
    const entityDocStart: number[] = [0];
    const entityDocs: number[] = [];
    for (const node of this.entities.values()) {
      if (!this.linked(node)) continue;
      entityIndex.set(node.key, entityIndex.size);
      for (const doc of node.docs) entityDocs.push(docIndex.get(doc)!);
      entityDocStart.push(entityDocs.length);
    }
    const docEntityStart: number[] = [0];
    const docEntities: number[] = [];
    for (const keys of this.docs.values()) {
      for (const key of keys) {
        const e = entityIndex.get(key);
        if (e !== undefined) docEntities.push(e);
      }
      docEntityStart.push(docEntities.length);
    }
    this.walkCache = {
      entityIndex,
      entityCount: entityIndex.size,
      entityDocStart: Int32Array.from(entityDocStart),
      entityDocs: Int32Array.from(entityDocs),
      docIds,
      docEntityStart: Int32Array.from(docEntityStart),
      docEntities: Int32Array.from(docEntities),
    };
    return this.walkCache;
  }
}
