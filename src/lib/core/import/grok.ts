/**
 * Grok (xAI) export: `{ conversations: [{ conversation: {...}, responses: [...] }] }`. A response
 * is either flat (`{ sender, message, create_time }`) or wrapped (`{ response: { _id, sender,
 * message, create_time, parent_response_id, ... } }`); times are ISO strings or MongoDB
 * extended JSON (`{ "$date": { "$numberLong": "..." } }`). With `parent_response_id` the
 * responses form a tree whose visible thread ends at the last response listed.
 */
import { finishConversation, label, roleOf, skip, type ElementResult, type ParseContext } from './context';
import type { ParsedMessage } from './parsed';
import { arr, field, idOf, isRecord, rec, str } from './read';
import { derivedId, derivedMessageId, uniqueId } from './stable-id';
import { toMillis } from './time';
import { orderTree, type TreeNode } from './tree';

function responseText(r: Record<string, unknown>): string {
  const files = (arr(r, 'file_attachments') ?? []).map((f) => `[file: ${typeof f === 'string' ? f : (str(f, 'name') ?? 'file')}]`);
  const images = (arr(r, 'generated_image_urls') ?? []).map(() => '[image: generated]');
  return [str(r, 'message') ?? '', ...files, ...images].filter((s) => s !== '').join('\n');
}

export function parseGrokConversation(value: unknown, ctx: ParseContext): ElementResult {
  const meta = rec(value, 'conversation');
  const title = str(meta, 'title');
  const what = label('conversation', title, ctx.index);
  const list = arr(value, 'responses');
  if (!isRecord(value) || !list) return skip(what, 'it has no "responses"');
  const notes = new Set<string>();
  const raw = list.map((item) => rec(item, 'response') ?? item).filter(isRecord);
  const seen = new Set<string>();
  const ids = raw.map((r, i) =>
    uniqueId(idOf(r, '_id') ?? idOf(r, 'id') ?? derivedMessageId(i, str(r, 'sender') ?? '', str(r, 'message') ?? ''), seen),
  );
  const branched = raw.some((r) => idOf(r, 'parent_response_id') !== undefined);
  const nodes = new Map<string, TreeNode>();
  const byId = new Map<string, Record<string, unknown>>();
  raw.forEach((r, i) => {
    nodes.set(ids[i]!, {
      id: ids[i]!,
      parent: branched ? (idOf(r, 'parent_response_id') ?? null) : i > 0 ? ids[i - 1]! : null,
      children: [],
    });
    byId.set(ids[i]!, r);
  });
  const order = orderTree(nodes, ids.at(-1) ?? null);

  const messages: ParsedMessage[] = [];
  const emit = (id: string, onVisiblePath: boolean) => {
    const r = byId.get(id)!;
    const role = roleOf(str(r, 'sender'), notes);
    const createdAt = toMillis(field(r, 'create_time'));
    const parentExternalId = nodes.get(id)?.parent ?? null;
    const thinking = str(r, 'thinking_trace') ?? '';
    if (thinking !== '') {
      messages.push({
        externalId: `${id}:thinking`,
        role,
        text: thinking,
        createdAt,
        parentExternalId,
        onVisiblePath,
        hidden: true,
        contentType: 'thinking',
      });
    }
    messages.push({
      externalId: id,
      role,
      text: responseText(r),
      createdAt,
      parentExternalId,
      onVisiblePath,
      hidden: false,
      contentType: 'text',
    });
  };
  for (const id of order.visible) emit(id, true);
  for (const id of order.others) emit(id, false);
  if (messages.length === 0) return skip(what, 'it holds no responses');

  const createdAt = toMillis(field(meta, 'create_time'));
  return {
    conversation: finishConversation(
      {
        source: 'grok',
        externalId: idOf(meta, 'id') ?? idOf(meta, 'conversation_id') ?? derivedId('grok', title ?? null, createdAt, messages[0]!.text),
        title: title ?? '',
        createdAt,
        updatedAt: toMillis(field(meta, 'modify_time') ?? field(meta, 'update_time')),
        messages,
        notes: [],
      },
      [...(branched ? order.notes : []), ...notes],
    ),
  };
}
