/**
 * Google AI Studio prompt files (saved to Drive): `chunkedPrompt.chunks`, a linear list of turns
 * with `role` user/model and `text` (or `parts`), media as Drive references, and model thoughts
 * marked `isThought` (kept hidden). `systemInstruction` becomes a hidden system message. The file
 * has no id and no title (its Drive name is the title), so both come from the first prompt.
 */
import { finishConversation, roleOf, skip, type ElementResult, type ParseContext } from './context';
import type { ParsedMessage } from './parsed';
import { arr, bool, clip, field, isRecord, rec, str } from './read';
import { derivedId, derivedMessageId } from './stable-id';

const MEDIA: readonly [string, string][] = [
  ['driveImage', 'image'],
  ['inlineImage', 'image'],
  ['driveDocument', 'document'],
  ['driveVideo', 'video'],
  ['youtubeVideo', 'video'],
  ['inlineFile', 'file'],
  ['driveAudio', 'audio'],
];

function partsText(parts: unknown[] | undefined, thought: boolean): string {
  return (parts ?? [])
    .filter((p) => bool(p, 'thought') === thought)
    .map((p) => str(p, 'text') ?? '')
    .filter((t) => t !== '')
    .join('');
}

function chunkText(chunk: Record<string, unknown>): { text: string; thought: string } {
  const parts = arr(chunk, 'parts');
  const isThought = bool(chunk, 'isThought');
  const own = str(chunk, 'text') ?? '';
  const text = isThought ? '' : own || partsText(parts, false);
  const thought = isThought ? own || partsText(parts, false) : partsText(parts, true);
  const media = MEDIA.filter(([key]) => rec(chunk, key) !== undefined).map(([key, kind]) => {
    const ref = rec(chunk, key);
    const id = str(ref, 'id') ?? str(ref, 'mimeType');
    return `[${kind}${id ? `: ${id}` : ''}]`;
  });
  return { text: [...media, text].filter((s) => s !== '').join('\n'), thought };
}

function systemText(value: Record<string, unknown>): string {
  const sys = field(value, 'systemInstruction');
  return str(sys, 'text') ?? partsText(arr(sys, 'parts'), false);
}

export function parseAistudioPrompt(value: unknown, ctx: ParseContext): ElementResult {
  const chunks = arr(rec(value, 'chunkedPrompt'), 'chunks');
  if (!isRecord(value) || !chunks) return skip(`prompt #${ctx.index + 1}`, 'it has no "chunkedPrompt.chunks"');
  const notes = new Set<string>(['AI Studio files carry no title; the first prompt was used']);
  const messages: ParsedMessage[] = [];
  let parent: string | null = null;
  const push = (role: ParsedMessage['role'], text: string, hidden: boolean, contentType: string) => {
    const externalId = derivedMessageId(messages.length, role, text);
    messages.push({ externalId, role, text, createdAt: null, parentExternalId: parent, onVisiblePath: true, hidden, contentType });
    parent = externalId;
  };
  const system = systemText(value);
  if (system !== '') push('system', system, true, 'system-instruction');
  for (const chunk of chunks) {
    if (!isRecord(chunk)) continue;
    const role = roleOf(str(chunk, 'role'), notes);
    const { text, thought } = chunkText(chunk);
    if (thought !== '') push(role, thought, true, 'thought');
    if (text !== '' || thought === '') push(role, text, false, 'text');
  }
  const pending = (arr(rec(value, 'chunkedPrompt'), 'pendingInputs') ?? []).filter((p) => (str(p, 'text') ?? '') !== '');
  if (pending.length > 0) notes.add(`${pending.length} unsent draft input(s) were not imported`);
  if (messages.length === 0) return skip(`prompt #${ctx.index + 1}`, 'it holds no turns');
  const first = messages.find((m) => m.role === 'user' && !m.hidden) ?? messages[0]!;
  return {
    conversation: finishConversation({
      source: 'aistudio',
      externalId: derivedId('aistudio', ctx.index, first.text),
      title: clip(first.text, 80),
      createdAt: null,
      updatedAt: null,
      messages,
      notes: [...notes],
    }),
  };
}
