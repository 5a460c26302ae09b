/**
 * The chunks' part of the catalog and of the entity graph, saved with the keyword index so a load
 * reads them back whole instead of reading every chunk row (each with its text and context text)
 * and linking its entities again: at 44,664 documents that read took 29-31 s of a 35-37 s reload in
 * Chromium (README, "Where the time goes").
 *
 * It is written by the same save as the keyword index (bm25-store.ts) and carries that save's
 * token, so it is used only under the keyword index's own rule: the saved copy is marked dirty
 * before any chunk changes, and clean only once bytes holding the change are written. A load still
 * checks it against the chunks table's keys (one key read, no rows) and the saved keyword index.
 * Notes are not in it: the load reads the kept notes as before (they are few, and their entries
 * need their text's hash).
 */
import type { EntityGraph, GraphSnapshot } from '../../core/graph/entity-graph';
import type { Catalog } from './catalog';
import { LINK_RECIPE } from './entity-links';

/** The format of the saved snapshot: bump when it changes. */
const FORMAT = 1;

export interface SavedChunk {
  id: string;
  hash: string;
  resource: boolean;
  conversationId: string | null;
}

export interface DocumentsSnapshot {
  chunks: SavedChunk[];
  graph: GraphSnapshot;
}

interface Encoded {
  format: number;
  recipe: string;
  token: string;
  ids: string[];
  hashes: string[];
  conversations: string[];
  /** Per chunk: its conversation's place in `conversations`, -1 for none. */
  conversation: number[];
  /** Places (in `ids`) of the chunks of pasted resources and web pages. */
  resources: number[];
  graph: GraphSnapshot;
}

/** The chunks of the catalog (in its order) and their part of the entity graph. */
export function takeSnapshot(catalog: Catalog, graph: EntityGraph): DocumentsSnapshot {
  const chunks: SavedChunk[] = [];
  for (const id of catalog.ids()) {
    const entry = catalog.get(id)!;
    if (entry.kind !== 'chunk') continue;
    chunks.push({ id, hash: entry.hash, resource: entry.resource === true, conversationId: entry.conversationId ?? null });
  }
  return { chunks, graph: graph.snapshot((docId) => catalog.get(docId)?.kind === 'chunk') };
}

export function encodeSnapshot(snapshot: DocumentsSnapshot, token: string): string {
  const conversations: string[] = [];
  const place = new Map<string, number>();
  const encoded: Encoded = {
    format: FORMAT,
    recipe: LINK_RECIPE,
    token,
    ids: [],
    hashes: [],
    conversations,
    conversation: [],
    resources: [],
    graph: snapshot.graph,
  };
  snapshot.chunks.forEach((chunk, i) => {
    encoded.ids.push(chunk.id);
    encoded.hashes.push(chunk.hash);
    if (chunk.resource) encoded.resources.push(i);
    if (chunk.conversationId === null) return void encoded.conversation.push(-1);
    let at = place.get(chunk.conversationId);
    if (at === undefined) {
      at = conversations.length;
      place.set(chunk.conversationId, at);
      conversations.push(chunk.conversationId);
    }
    encoded.conversation.push(at);
  });
  return JSON.stringify(encoded);
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
const isInts = (value: unknown): value is number[] => Array.isArray(value) && value.every((v) => Number.isInteger(v));

/**
 * The snapshot saved with token `token`, or why it cannot be used (another save's, another
 * linker's or format's, or damaged).
 */
export function decodeSnapshot(text: unknown, token: string): { ok: true; value: DocumentsSnapshot } | { ok: false; why: string } {
  let raw: Partial<Encoded>;
  try {
    raw = typeof text === 'string' ? (JSON.parse(text) as Partial<Encoded>) : {};
  } catch {
    return { ok: false, why: 'the saved documents are damaged' };
  }
  if (raw.format !== FORMAT) return { ok: false, why: 'the saved documents are of another format' };
  if (raw.recipe !== LINK_RECIPE) return { ok: false, why: 'the saved documents were linked by another version of the entity linker' };
  if (raw.token !== token) return { ok: false, why: 'the saved documents belong to another save of the keyword index' };
  const { ids, hashes, conversations, conversation, resources, graph } = raw;
  if (
    !isStrings(ids) ||
    !isStrings(hashes) ||
    !isStrings(conversations) ||
    !isInts(conversation) ||
    !isInts(resources) ||
    hashes.length !== ids.length ||
    conversation.length !== ids.length ||
    conversation.some((c) => c < -1 || c >= conversations.length) ||
    !graph ||
    !Array.isArray(graph.entities) ||
    !Array.isArray(graph.docs)
  )
    return { ok: false, why: 'the saved documents are damaged' };
  const resource = new Set(resources);
  const chunks = ids.map((id, i) => {
    const c = conversation[i]!;
    return { id, hash: hashes[i]!, resource: resource.has(i), conversationId: c < 0 ? null : conversations[c]! };
  });
  return { ok: true, value: { chunks, graph } };
}
