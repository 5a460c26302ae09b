/**
 * ChatGPT "Export data" conversations: `mapping` is a tree of nodes keyed by id, each with an
 * optional `message`; `current_node` is the leaf the person saw last. The visible thread is the
 * path root -> current_node; other branches (edits, regenerations) are kept off the visible path.
 * Without `current_node` (some third-party exporters omit it) the visible thread ends in the latest
 * message a person could see.
 * Hidden: nodes the export marks `is_visually_hidden_from_conversation` or
 * `is_user_system_message`, system messages, custom instructions (`user_editable_context`,
 * `model_editable_context`) and reasoning (`thoughts`, `reasoning_recap`).
 */
import { finishConversation, label, roleOf, skip, type ElementResult, type ParseContext } from './context';
import { renderChatgptContent } from './chatgpt-content';
import type { ParsedMessage } from './parsed';
import { arr, bool, entriesOf, field, idOf, isRecord, rec, str } from './read';
import { derivedId } from './stable-id';
import { toMillis } from './time';
import { latestVisibleLeaf, nearestEmitted, orderTree, type TreeNode } from './tree';

function readTree(mapping: Record<string, unknown>, notes: Set<string>): { nodes: Map<string, TreeNode>; messages: Map<string, unknown> } {
  const nodes = new Map<string, TreeNode>();
  const messages = new Map<string, unknown>();
  for (const [key, node] of entriesOf(mapping)) {
    if (!isRecord(node)) {
      notes.add('a mapping entry is not an object; skipped');
      continue;
    }
    const children = (arr(node, 'children') ?? []).filter((c): c is string => typeof c === 'string');
    nodes.set(key, { id: key, parent: idOf(node, 'parent') ?? null, children });
    messages.set(key, field(node, 'message'));
  }
  return { nodes, messages };
}

function isHidden(msg: Record<string, unknown>, role: ParsedMessage['role'], hiddenKind: boolean, reasoning: boolean): boolean {
  const meta = rec(msg, 'metadata');
  return (
    hiddenKind ||
    reasoning ||
    role === 'system' ||
    bool(meta, 'is_visually_hidden_from_conversation') ||
    bool(meta, 'is_user_system_message') ||
    bool(meta, 'is_contextual_answers_system_message')
  );
}

interface ReadMessage {
  message: Omit<ParsedMessage, 'parentExternalId' | 'onVisiblePath'>;
  hidden: boolean;
  createdAt: number | null;
  unfinished: boolean;
}

/** Renders every node's message once, in the mapping's order (unknown types reported once each). */
function readMessages(
  nodes: ReadonlyMap<string, TreeNode>,
  rawMessages: ReadonlyMap<string, unknown>,
  ctx: ParseContext,
  notes: Set<string>,
): Map<string, ReadMessage> {
  const out = new Map<string, ReadMessage>();
  for (const id of nodes.keys()) {
    const msg = rawMessages.get(id);
    if (!isRecord(msg)) continue;
    const rendered = renderChatgptContent(field(msg, 'content'), ctx);
    const role = roleOf(str(rec(msg, 'author'), 'role'), notes);
    const hidden = isHidden(msg, role, rendered.hiddenKind, rendered.reasoning);
    const createdAt = toMillis(field(msg, 'create_time'));
    out.set(id, {
      message: { externalId: id, role, text: rendered.text, createdAt, hidden, contentType: rendered.contentType },
      hidden,
      createdAt,
      unfinished: str(msg, 'status') === 'in_progress',
    });
  }
  return out;
}

export function parseChatgptConversation(value: unknown, ctx: ParseContext): ElementResult {
  if (!isRecord(value)) return skip(`item #${ctx.index + 1}`, 'it is not a conversation object');
  const title = str(value, 'title');
  const what = label('conversation', title, ctx.index);
  const mapping = rec(value, 'mapping');
  if (!mapping) return skip(what, 'it has no "mapping": the export holds no messages for it');

  const notes = new Set<string>();
  if (title === undefined) notes.add('the conversation has no title');
  const { nodes, messages: rawMessages } = readTree(mapping, notes);
  const read = readMessages(nodes, rawMessages, ctx, notes);
  // Some third-party exporters omit `current_node`: the visible thread is then the branch that
  // ends in the latest message a person could see (never a hidden system or context node).
  const order = orderTree(nodes, idOf(value, 'current_node') ?? null, () =>
    latestVisibleLeaf(nodes, (id) => {
      const m = read.get(id);
      return m === undefined || m.hidden ? null : (m.createdAt ?? undefined);
    }),
  );
  const emitted = new Map<string, string>();
  const messages: ParsedMessage[] = [];
  let unfinished = 0;

  const emit = (id: string, onVisiblePath: boolean) => {
    const m = read.get(id);
    if (m === undefined) return; // the root and other structural nodes carry no message
    if (m.unfinished) unfinished++;
    messages.push({ ...m.message, parentExternalId: nearestEmitted(id, nodes, emitted), onVisiblePath });
    emitted.set(id, id);
  };
  for (const id of order.visible) emit(id, true);
  for (const id of order.others) emit(id, false);

  if (messages.length === 0) return skip(what, 'its mapping holds no messages');
  if (unfinished > 0) notes.add(`${unfinished} message(s) were still being written when exported; kept as they are`);

  const createdAt = toMillis(field(value, 'create_time'));
  const first = messages.find((m) => !m.hidden) ?? messages[0]!;
  const externalId = idOf(value, 'conversation_id') ?? idOf(value, 'id') ?? derivedId('chatgpt', title ?? null, createdAt, first.text);
  return {
    conversation: finishConversation(
      {
        source: 'chatgpt',
        externalId,
        title: title ?? '',
        createdAt,
        updatedAt: toMillis(field(value, 'update_time')),
        messages,
        notes: [],
      },
      [...order.notes, ...notes],
    ),
  };
}
