/** Small builders for hand-written export fixtures (the shapes of the real formats, minimal). */

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export interface NodeSpec {
  id: string;
  parent: string | null;
  role?: string;
  content?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** No message at all (structural node). */
  empty?: boolean;
  time?: number;
}

export const text = (...parts: unknown[]) => ({ content_type: 'text', parts });

/** A ChatGPT conversation from a flat node list; children are derived from parents, in list order. */
export function chatgptConversation(nodes: NodeSpec[], current: string | null, extra: Record<string, unknown> = {}) {
  const mapping: Record<string, unknown> = {};
  for (const n of nodes) {
    mapping[n.id] = {
      id: n.id,
      parent: n.parent,
      children: nodes.filter((c) => c.parent === n.id).map((c) => c.id),
      message: n.empty
        ? null
        : {
            id: n.id,
            author: { role: n.role ?? 'user', name: null, metadata: {} },
            create_time: n.time ?? null,
            content: n.content ?? text(`text of ${n.id}`),
            status: 'finished_successfully',
            metadata: n.metadata ?? {},
            recipient: 'all',
          },
    };
  }
  return {
    title: 'Fixture',
    create_time: 1_700_000_000.5,
    update_time: 1_700_000_100,
    mapping,
    current_node: current,
    id: 'fixture-1',
    ...extra,
  };
}

export function claudeConversation(messages: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  return {
    uuid: 'claude-1',
    name: 'Claude fixture',
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:05:00Z',
    chat_messages: messages,
    ...extra,
  };
}
