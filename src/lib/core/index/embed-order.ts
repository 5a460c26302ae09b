/**
 * The order in which documents are embedded (a neural model on WASM embeds a few hundred tokens a
 * second, so a large vault takes hours and the order decides what recall can use first): kept notes
 * (engrams and pasted resources) first, then the chunks of the most recently active conversations,
 * then undated ones. Pure: the dates come in with the documents.
 */

export type EmbedGroup = 0 | 1 | 2;

export interface EmbedOrderKey {
  id: string;
  /** 0 kept notes and resources, 1 dated conversation chunks, 2 undated chunks. */
  group: EmbedGroup;
  /** When the source was last active (ms since epoch), newest first within a group; null last. */
  at: number | null;
}

export function embedGroup(kind: 'note' | 'resource' | 'chat', at: number | null): EmbedGroup {
  if (kind !== 'chat') return 0;
  return at === null ? 2 : 1;
}

export function compareEmbedOrder(a: EmbedOrderKey, b: EmbedOrderKey): number {
  if (a.group !== b.group) return a.group - b.group;
  const at = (b.at ?? -Infinity) - (a.at ?? -Infinity);
  if (at !== 0 && !Number.isNaN(at)) return at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
