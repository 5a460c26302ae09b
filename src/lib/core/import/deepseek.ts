/**
 * DeepSeek export: like ChatGPT a `mapping` tree with `current_node`, but each message is a list
 * of `fragments` typed REQUEST (the person), RESPONSE (the answer), THINK (reasoning, kept hidden)
 * and tool kinds such as SEARCH. Times are ISO strings with offsets (`inserted_at`). Messages of
 * the older shape (`content` + `reasoning_content` + a role) are read too.
 */
import { finishConversation, label, roleOf, skip, type ElementResult, type ParseContext } from './context';
import type { ParsedMessage } from './parsed';
import { arr, entriesOf, field, idOf, isRecord, rec, str } from './read';
import { derivedId } from './stable-id';
import { toMillis } from './time';
import { nearestEmitted, orderTree, type TreeNode } from './tree';

interface Fragments {
  role: ParsedMessage['role'];
  text: string;
  thinking: string;
}

function fragmentText(f: Record<string, unknown>): string {
  const content = field(f, 'content');
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return `[${content.length} result(s)]`;
  return '';
}

function readFragments(msg: Record<string, unknown>, ctx: ParseContext, notes: Set<string>): Fragments {
  const fragments = arr(msg, 'fragments');
  const files = (arr(msg, 'files') ?? []).map((f) => `[file: ${str(f, 'file_name') ?? str(f, 'name') ?? 'file'}]`);
  if (!fragments) {
    const role = roleOf(str(msg, 'role') ?? str(rec(msg, 'author'), 'role'), notes);
    return { role, text: [str(msg, 'content') ?? '', ...files].filter(Boolean).join('\n'), thinking: str(msg, 'reasoning_content') ?? '' };
  }
  const text: string[] = [];
  const thinking: string[] = [];
  let asked = false;
  for (const f of fragments) {
    if (!isRecord(f)) continue;
    const type = (str(f, 'type') ?? 'missing').toUpperCase();
    switch (type) {
      case 'REQUEST':
        asked = true;
        text.push(fragmentText(f));
        break;
      case 'RESPONSE':
        text.push(fragmentText(f));
        break;
      case 'THINK':
        thinking.push(fragmentText(f));
        break;
      case 'SEARCH':
        text.push(`[web search: ${fragmentText(f) || 'results'}]`);
        break;
      default:
        ctx.unknownType(type);
        text.push(fragmentText(f) || `[${type.toLowerCase()}]`);
    }
  }
  return {
    role: asked ? 'user' : 'assistant',
    text: [...text, ...files].filter((s) => s !== '').join('\n\n'),
    thinking: thinking.join('\n\n'),
  };
}

export function parseDeepseekConversation(value: unknown, ctx: ParseContext): ElementResult {
  if (!isRecord(value)) return skip(`item #${ctx.index + 1}`, 'it is not a conversation object');
  const title = str(value, 'title');
  const what = label('conversation', title, ctx.index);
  const mapping = rec(value, 'mapping');
  if (!mapping) return skip(what, 'it has no "mapping": the export holds no messages for it');
  const notes = new Set<string>();
  const nodes = new Map<string, TreeNode>();
  const raw = new Map<string, unknown>();
  for (const [key, node] of entriesOf(mapping)) {
    if (!isRecord(node)) continue;
    const children = (arr(node, 'children') ?? []).filter((c): c is string => typeof c === 'string');
    nodes.set(key, { id: key, parent: idOf(node, 'parent') ?? null, children });
    raw.set(key, field(node, 'message'));
  }
  const order = orderTree(nodes, idOf(value, 'current_node') ?? null);
  const emitted = new Map<string, string>();
  const messages: ParsedMessage[] = [];
  const emit = (id: string, onVisiblePath: boolean) => {
    const msg = raw.get(id);
    if (!isRecord(msg)) return;
    const { role, text, thinking } = readFragments(msg, ctx, notes);
    const createdAt = toMillis(field(msg, 'inserted_at') ?? field(msg, 'create_time'));
    const parentExternalId = nearestEmitted(id, nodes, emitted);
    if (thinking !== '') {
      messages.push({
        externalId: `${id}:think`,
        role,
        text: thinking,
        createdAt,
        parentExternalId,
        onVisiblePath,
        hidden: true,
        contentType: 'think',
      });
    }
    messages.push({ externalId: id, role, text, createdAt, parentExternalId, onVisiblePath, hidden: false, contentType: 'text' });
    emitted.set(id, id);
  };
  for (const id of order.visible) emit(id, true);
  for (const id of order.others) emit(id, false);
  if (messages.length === 0) return skip(what, 'its mapping holds no messages');

  const createdAt = toMillis(field(value, 'inserted_at') ?? field(value, 'create_time'));
  return {
    conversation: finishConversation(
      {
        source: 'deepseek',
        externalId:
          idOf(value, 'id') ?? idOf(value, 'conversation_id') ?? derivedId('deepseek', title ?? null, createdAt, messages[0]!.text),
        title: title ?? '',
        createdAt,
        updatedAt: toMillis(field(value, 'updated_at') ?? field(value, 'update_time')),
        messages,
        notes: [],
      },
      [...order.notes, ...notes],
    ),
  };
}
