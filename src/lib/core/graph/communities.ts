/**
 * Entity communities (issue 12's GLOBAL view): groups of entities the vault names together, found by
 * Louvain modularity over the co-occurrence graph (graphology-communities-louvain), with a seeded
 * random source so the same graph always gives the same groups. Each community keeps its entities
 * (most mentioned first) and the documents that name at least two of them (one, for a pair), the
 * material its summary is drawn from (structure-units.ts).
 */
import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import { seededRng } from '../seeded-rng';
import type { EntityGraph } from './entity-graph';
import type { EntityMention } from './entity-linker';

export interface CommunityEntity {
  id: string;
  name: string;
  kind: EntityMention['kind'];
  mentions: number;
}

export interface EntityCommunity {
  /** `community:<key of its most mentioned entity>`: stable while that entity leads it. */
  id: string;
  entities: CommunityEntity[];
  /** Documents naming at least two of its entities, those naming the most first (ties by id). */
  docIds: string[];
  /** The conversations of those documents, once each, in the same order (documents of their own add none). */
  conversationIds: string[];
}

export interface CommunityOptions {
  /** Fewer entities than this is not a community (default 3). */
  minEntities: number;
  /** At most this many communities, the ones with the most documents (default 200). */
  limit: number;
  /** Louvain's resolution (default 1: plain modularity). */
  resolution: number;
  /** Entities in more than this share of documents are hubs, left out (entity-graph.ts). */
  hubShare: number;
  /** The random source's seed (Louvain visits nodes in a random order). */
  seed: number;
}

export const DEFAULT_COMMUNITIES: CommunityOptions = { minEntities: 3, limit: 200, resolution: 1, hubShare: 0.2, seed: 12 };

export function entityCommunities(graph: EntityGraph, options: Partial<CommunityOptions> = {}): EntityCommunity[] {
  const o = { ...DEFAULT_COMMUNITIES, ...options };
  const { entities, edges } = graph.cooccurrence({ hubShare: o.hubShare });
  const g = new Graph({ type: 'undirected', multi: false });
  const byId = new Map(entities.map((e) => [e.id, e]));
  for (const [a, b, weight] of edges) {
    if (!g.hasNode(a)) g.addNode(a);
    if (!g.hasNode(b)) g.addNode(b);
    g.addEdge(a, b, { weight });
  }
  if (g.order === 0 || g.size === 0) return [];
  const assignment = louvain(g, { getEdgeWeight: 'weight', resolution: o.resolution, rng: seededRng(o.seed) });
  const members = new Map<number, string[]>();
  for (const [node, community] of Object.entries(assignment)) members.set(community, [...(members.get(community) ?? []), node]);
  const out: EntityCommunity[] = [];
  for (const keys of members.values()) {
    if (keys.length < o.minEntities) continue;
    const list = keys
      .map((k) => byId.get(k)!)
      .map((e) => ({ id: e.id, name: e.name, kind: e.kind, mentions: e.docs.length }))
      .sort((a, b) => b.mentions - a.mentions || (a.id < b.id ? -1 : 1));
    const named = new Map<string, number>();
    for (const e of keys) for (const doc of byId.get(e)!.docs) named.set(doc, (named.get(doc) ?? 0) + 1);
    const need = Math.min(2, keys.length);
    const docIds = [...named]
      .filter(([, n]) => n >= need)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([doc]) => doc);
    if (docIds.length === 0) continue;
    const conversationIds = [...new Set(docIds.flatMap((d) => graph.conversationOfDoc(d) ?? []))];
    out.push({ id: `community:${list[0]!.id}`, entities: list, docIds, conversationIds });
  }
  return out.sort((a, b) => b.docIds.length - a.docIds.length || (a.id < b.id ? -1 : 1)).slice(0, o.limit);
}
