/**
 * Open WebUI chat export: a list of `{ id, title, chat: { history: { currentId, messages } } }`,
 * the messages a tree keyed by id (`parentId`, `childrenIds`). Newer versions add a structured
 * `output` list (message / reasoning / function_call / function_call_output), older ones inline
 * reasoning and tool calls in `content` as `<details type="reasoning|tool_calls">` blocks. Both are
 * read; reasoning is kept hidden. A chat with only the flat `chat.messages` list is read too.
 */
import { decodeEntities } from '../text/html-to-text';
import { finishConversation, label, roleOf, skip, type ElementResult, type ParseContext } from './context';
import type { ParsedMessage } from './parsed';
import { arr, entriesOf, field, idOf, isRecord, rec, str } from './read';
import { derivedId, derivedMessageId } from './stable-id';
import { toMillis } from './time';
import { orderTree, type TreeNode } from './tree';

interface Rendered {
  text: string;
  reasoning: string;
}

function itemTexts(list: unknown): string {
  return (Array.isArray(list) ? list : [])
    .map((c) => (typeof c === 'string' ? c : (str(c, 'text') ?? '')))
    .filter((t) => t !== '')
    .join('\n');
}

function fromOutput(output: unknown[], ctx: ParseContext): Rendered {
  const text: string[] = [];
  const reasoning: string[] = [];
  for (const item of output) {
    const type = str(item, 'type') ?? 'missing';
    if (type === 'message') text.push(itemTexts(field(item, 'content')));
    else if (type === 'reasoning') reasoning.push(itemTexts(field(item, 'content')) || itemTexts(field(item, 'summary')));
    else if (type === 'function_call') text.push(`[tool call: ${str(item, 'name') ?? 'tool'}(${str(item, 'arguments') ?? ''})]`);
    else if (type === 'function_call_output') text.push(`[tool result]\n${itemTexts(field(item, 'output'))}`.trimEnd());
    else {
      ctx.unknownType(`output:${type}`);
      text.push(itemTexts(field(item, 'content')) || `[${type}]`);
    }
  }
  return { text: text.filter((t) => t !== '').join('\n\n'), reasoning: reasoning.filter((t) => t !== '').join('\n\n') };
}

// A block may not run into the next <details>: unclosed blocks cannot make the scan quadratic.
const DETAILS = /<details\b([^>]{0,1000})>((?:(?!<details\b)[\s\S])*?)<\/details>/giu;

/** Splits `<details type="reasoning">` out of inline content; tool-call blocks become placeholders. */
function fromContent(content: string): Rendered {
  const reasoning: string[] = [];
  const text = content.replace(DETAILS, (_all, attrs: string, inner: string) => {
    const type = /type="([^"]*)"/u.exec(attrs)?.[1] ?? '';
    const body = decodeEntities(inner.replace(/<summary>[\s\S]*?<\/summary>/iu, '')).trim();
    if (type === 'reasoning') {
      reasoning.push(body);
      return '';
    }
    if (type === 'tool_calls') return `[tool call]${body ? `\n${body}` : ''}\n\n`;
    return `${body}\n\n`;
  });
  return { text: text.trim(), reasoning: reasoning.join('\n\n') };
}

function render(m: Record<string, unknown>, ctx: ParseContext): Rendered {
  const output = arr(m, 'output');
  const fromOut = output ? fromOutput(output, ctx) : null;
  const base =
    fromOut && fromOut.text !== ''
      ? fromOut
      : { ...fromContent(str(m, 'content') ?? ''), ...(fromOut?.reasoning ? { reasoning: fromOut.reasoning } : {}) };
  const files = (arr(m, 'files') ?? []).map((f) => `[file: ${str(f, 'name') ?? str(rec(f, 'file'), 'filename') ?? 'file'}]`);
  return { text: [base.text, ...files].filter((s) => s !== '').join('\n'), reasoning: base.reasoning };
}

export function parseOpenwebuiChat(value: unknown, ctx: ParseContext): ElementResult {
  if (!isRecord(value)) return skip(`item #${ctx.index + 1}`, 'it is not a chat object');
  const chat = rec(value, 'chat') ?? value;
  const title = str(value, 'title') ?? str(chat, 'title');
  const what = label('chat', title, ctx.index);
  const history = rec(chat, 'history');
  const keyed = rec(history, 'messages');
  const list = keyed
    ? entriesOf(keyed).map(([key, m]) => [idOf(m, 'id') ?? key, m] as const)
    : (arr(chat, 'messages') ?? []).map(
        (m, i) => [idOf(m, 'id') ?? derivedMessageId(i, str(m, 'role') ?? '', str(m, 'content') ?? ''), m] as const,
      );
  const notes = new Set<string>();
  const nodes = new Map<string, TreeNode>();
  const byId = new Map<string, Record<string, unknown>>();
  let previous: string | null = null;
  for (const [id, m] of list) {
    if (!isRecord(m) || nodes.has(id)) continue;
    const parent = idOf(m, 'parentId') ?? (keyed || field(m, 'parentId') === null ? null : previous);
    const children = (arr(m, 'childrenIds') ?? []).filter((c): c is string => typeof c === 'string');
    nodes.set(id, { id, parent, children });
    byId.set(id, m);
    previous = id;
  }
  const order = orderTree(nodes, idOf(history, 'currentId') ?? (keyed ? null : previous));
  const messages: ParsedMessage[] = [];
  const emit = (id: string, onVisiblePath: boolean) => {
    const m = byId.get(id)!;
    const role = roleOf(str(m, 'role'), notes);
    const { text, reasoning } = render(m, ctx);
    const createdAt = toMillis(field(m, 'timestamp'));
    const parentExternalId = nodes.get(id)?.parent ?? null;
    if (reasoning !== '') {
      messages.push({
        externalId: `${id}:reasoning`,
        role,
        text: reasoning,
        createdAt,
        parentExternalId,
        onVisiblePath,
        hidden: true,
        contentType: 'reasoning',
      });
    }
    messages.push({
      externalId: id,
      role,
      text,
      createdAt,
      parentExternalId,
      onVisiblePath,
      hidden: role === 'system',
      contentType: 'text',
    });
  };
  for (const id of order.visible) emit(id, true);
  for (const id of order.others) emit(id, false);
  if (messages.length === 0) return skip(what, 'it holds no messages');
  const createdAt = toMillis(field(value, 'created_at') ?? field(chat, 'timestamp'));
  return {
    conversation: finishConversation(
      {
        source: 'openwebui',
        externalId: idOf(value, 'id') ?? idOf(chat, 'id') ?? derivedId('openwebui', title ?? null, createdAt, messages[0]!.text),
        title: title ?? '',
        createdAt,
        updatedAt: toMillis(field(value, 'updated_at')),
        messages,
        notes: [],
      },
      [...order.notes, ...notes],
    ),
  };
}
