/**
 * Claude (claude.ai) export: conversations with `chat_messages`, each with `sender`, `text` and,
 * in newer exports, `content` blocks (text, thinking, tool_use, tool_result, ...). A message whose
 * `text` is empty is read from its blocks; attachments keep their `extracted_content`; files
 * without content become placeholders. Newer exports name `parent_message_uuid` (branches from
 * edits and retries): then the visible thread is the path to `current_leaf_message_uuid`, or to
 * the last message listed.
 */
import { finishConversation, label, roleOf, skip, type ElementResult, type ParseContext } from './context';
import type { ParsedMessage } from './parsed';
import { arr, bool, field, idOf, isRecord, str } from './read';
import { derivedId, derivedMessageId, uniqueId } from './stable-id';
import { toMillis } from './time';
import { orderTree, type TreeNode } from './tree';

interface Rendered {
  text: string;
  thinking: string;
}

function blockContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (typeof c === 'string' ? c : (str(c, 'text') ?? (str(c, 'type') ? `[${str(c, 'type')}]` : ''))))
    .filter((s) => s !== '')
    .join('\n');
}

function toolUseText(block: Record<string, unknown>): string {
  const name = str(block, 'name') ?? 'tool';
  const input = field(block, 'input');
  const title = str(input, 'title');
  const body = str(input, 'content') ?? str(input, 'code') ?? str(input, 'new_str') ?? (input === undefined ? '' : JSON.stringify(input));
  return `[tool call: ${name}${title ? ` "${title}"` : ''}]${body ? `\n${body}` : ''}`;
}

function renderBlocks(blocks: unknown[], ctx: ParseContext): Rendered {
  const text: string[] = [];
  const thinking: string[] = [];
  for (const block of blocks) {
    if (!isRecord(block)) continue;
    const type = str(block, 'type') ?? 'missing';
    switch (type) {
      case 'text':
        text.push(str(block, 'text') ?? '');
        break;
      case 'thinking':
      case 'redacted_thinking':
        thinking.push(str(block, 'thinking') ?? str(block, 'text') ?? '[redacted thinking]');
        break;
      case 'tool_use':
      case 'server_tool_use':
        text.push(toolUseText(block));
        break;
      case 'tool_result':
      case 'web_search_tool_result': {
        const name = str(block, 'name');
        const error = bool(block, 'is_error') ? ' (error)' : '';
        const body = blockContentText(field(block, 'content'));
        text.push(`[tool result${name ? `: ${name}` : ''}${error}]${body ? `\n${body}` : ''}`);
        break;
      }
      case 'image':
        text.push('[image]');
        break;
      case 'document':
        text.push(`[document${str(block, 'title') ? `: ${str(block, 'title')}` : ''}]`);
        break;
      default:
        ctx.unknownType(type);
        text.push(str(block, 'text') ?? `[${type}]`);
    }
  }
  return { text: text.filter((t) => t !== '').join('\n\n'), thinking: thinking.filter((t) => t !== '').join('\n\n') };
}

function attachmentsText(msg: Record<string, unknown>): string {
  const out: string[] = [];
  for (const a of arr(msg, 'attachments') ?? []) {
    const name = str(a, 'file_name') ?? 'attachment';
    const content = str(a, 'extracted_content');
    out.push(content ? `[attachment: ${name}]\n${content}` : `[attachment: ${name}]`);
  }
  for (const f of arr(msg, 'files') ?? []) out.push(`[file: ${str(f, 'file_name') ?? 'file'}]`);
  return out.join('\n\n');
}

function messageText(msg: Record<string, unknown>, ctx: ParseContext): Rendered {
  const blocks = arr(msg, 'content');
  const fromBlocks = blocks ? renderBlocks(blocks, ctx) : { text: '', thinking: '' };
  // The plain `text` field is authoritative when present; blocks fill in when it is empty.
  const plain = str(msg, 'text') ?? '';
  const body = fromBlocks.text.trim() !== '' ? fromBlocks.text : plain;
  const extra = attachmentsText(msg);
  return { text: [body, extra].filter((s) => s !== '').join('\n\n'), thinking: fromBlocks.thinking };
}

export function parseClaudeConversation(value: unknown, ctx: ParseContext): ElementResult {
  if (!isRecord(value)) return skip(`item #${ctx.index + 1}`, 'it is not a conversation object');
  const title = str(value, 'name');
  const what = label('conversation', title, ctx.index);
  const list = arr(value, 'chat_messages');
  if (!list) return skip(what, 'it has no "chat_messages"');
  const notes = new Set<string>();
  const raw = list.filter(isRecord);
  if (raw.length < list.length) notes.add(`${list.length - raw.length} message entr(ies) were not objects; skipped`);

  const seen = new Set<string>();
  const ids = raw.map((m, i) => uniqueId(idOf(m, 'uuid') ?? derivedMessageId(i, str(m, 'sender') ?? '', str(m, 'text') ?? ''), seen));
  if (ids.some((id, i) => id !== (idOf(raw[i], 'uuid') ?? id))) notes.add('some message ids occur more than once; later copies renamed');
  const branched = raw.some((m) => idOf(m, 'parent_message_uuid') !== undefined);
  const nodes = new Map<string, TreeNode>();
  const byId = new Map<string, Record<string, unknown>>();
  raw.forEach((m, i) => {
    const parent = branched ? (idOf(m, 'parent_message_uuid') ?? null) : i > 0 ? ids[i - 1]! : null;
    nodes.set(ids[i]!, { id: ids[i]!, parent, children: [] });
    byId.set(ids[i]!, m);
  });
  const leaf = idOf(value, 'current_leaf_message_uuid') ?? ids.at(-1) ?? null;
  const order = orderTree(nodes, leaf);

  const messages: ParsedMessage[] = [];
  const emit = (id: string, onVisiblePath: boolean) => {
    const m = byId.get(id)!;
    const role = roleOf(str(m, 'sender'), notes);
    const { text, thinking } = messageText(m, ctx);
    const parent = nodes.get(id)?.parent ?? null;
    const createdAt = toMillis(field(m, 'created_at'));
    if (thinking !== '') {
      messages.push({
        externalId: `${id}:thinking`,
        role,
        text: thinking,
        createdAt,
        parentExternalId: parent,
        onVisiblePath,
        hidden: true,
        contentType: 'thinking',
      });
    }
    messages.push({ externalId: id, role, text, createdAt, parentExternalId: parent, onVisiblePath, hidden: false, contentType: 'text' });
  };
  for (const id of order.visible) emit(id, true);
  for (const id of order.others) emit(id, false);
  if (messages.length === 0) return skip(what, 'it holds no messages');

  const createdAt = toMillis(field(value, 'created_at'));
  const externalId = idOf(value, 'uuid') ?? derivedId('claude', title ?? null, createdAt, messages[0]!.text);
  return {
    conversation: finishConversation(
      { source: 'claude', externalId, title: title ?? '', createdAt, updatedAt: toMillis(field(value, 'updated_at')), messages, notes: [] },
      [...(branched ? order.notes : []), ...notes],
    ),
  };
}
