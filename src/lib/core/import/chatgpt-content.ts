/**
 * Text of a ChatGPT message `content`, by `content_type`. Text is kept as written; non-text parts
 * become short typed placeholders (`[image: file-abc]`) so a reader knows something was there.
 * An unknown type is kept (its text if it has any, else a placeholder) and reported, never fatal.
 */
import type { ParseContext } from './context';
import { arr, field, isRecord, rec, str } from './read';

export interface RenderedContent {
  text: string;
  contentType: string;
  /** Kinds that are never a turn of the conversation (custom instructions, memory context). */
  hiddenKind: boolean;
  /** Model reasoning: kept, but hidden (see ParsedMessage.hidden). */
  reasoning: boolean;
}

/** `file-service://file-abc` and `sediment://file_123` name the same kind of thing: an uploaded asset. */
function assetId(pointer: unknown): string {
  return typeof pointer === 'string' ? pointer.replace(/^[a-z-]+:\/\//u, '') : 'unknown';
}

function clipped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function renderPart(part: unknown, ctx: ParseContext): string | null {
  if (typeof part === 'string') return part;
  if (part === null || part === undefined) return null;
  if (typeof part === 'number' || typeof part === 'boolean') return String(part);
  if (!isRecord(part)) return null;
  const type = str(part, 'content_type');
  switch (type) {
    case 'image_asset_pointer': {
      const prompt = str(rec(rec(part, 'metadata'), 'dalle'), 'prompt');
      return prompt
        ? `[image: ${assetId(field(part, 'asset_pointer'))}, prompt: "${clipped(prompt, 200)}"]`
        : `[image: ${assetId(field(part, 'asset_pointer'))}]`;
    }
    case 'audio_transcription':
      return str(part, 'text') ?? '';
    case 'audio_asset_pointer':
      return `[audio: ${assetId(field(part, 'asset_pointer'))}]`;
    case 'video_container_asset_pointer':
      return `[video: ${assetId(field(part, 'asset_pointer'))}]`;
    case 'real_time_user_audio_video_asset_pointer': {
      const inner = rec(part, 'audio_asset_pointer') ?? rec(part, 'video_container_asset_pointer');
      return `[audio/video: ${assetId(field(inner, 'asset_pointer'))}]`;
    }
    default: {
      const text = str(part, 'text');
      ctx.unknownType(`part:${type ?? 'object'}`);
      return text ?? `[${type ?? 'object'}]`;
    }
  }
}

function renderParts(parts: unknown[] | undefined, ctx: ParseContext): string {
  if (!parts) return '';
  const out: string[] = [];
  for (const part of parts) {
    const text = renderPart(part, ctx);
    if (text !== null) out.push(text);
  }
  return out.join('\n');
}

function fenced(code: string, language: string | undefined): string {
  const lang = language && language !== 'unknown' ? language : '';
  const fence = code.includes('```') ? '````' : '```';
  return `${fence}${lang}\n${code}\n${fence}`;
}

function thoughtsText(content: unknown): string {
  const thoughts = arr(content, 'thoughts') ?? [];
  return thoughts
    .map((t) => [str(t, 'summary'), str(t, 'content')].filter((s): s is string => !!s).join('\n'))
    .filter((s) => s !== '')
    .join('\n\n');
}

const plain = (text: string, contentType: string): RenderedContent => ({ text, contentType, hiddenKind: false, reasoning: false });

export function renderChatgptContent(content: unknown, ctx: ParseContext): RenderedContent {
  const type = str(content, 'content_type') ?? 'missing';
  switch (type) {
    case 'text':
    case 'multimodal_text':
      return plain(renderParts(arr(content, 'parts'), ctx), type);
    case 'code':
      return plain(fenced(str(content, 'text') ?? '', str(content, 'language')), type);
    case 'execution_output':
      return plain(str(content, 'text') ?? '', type);
    case 'tether_quote': {
      const source = [str(content, 'title'), str(content, 'url')].filter(Boolean).join(' — ');
      return plain(`${source ? `[quote: ${source}]\n` : ''}${str(content, 'text') ?? ''}`, type);
    }
    case 'tether_browsing_display': {
      const text = str(content, 'result') || str(content, 'summary') || '';
      return plain(text || '[browsing results]', type);
    }
    case 'sonic_webpage': {
      const source = [str(content, 'title'), str(content, 'url')].filter(Boolean).join(' — ');
      return plain(`[web page: ${source}]\n${str(content, 'text') ?? str(content, 'snippet') ?? ''}`.trimEnd(), type);
    }
    case 'thoughts':
      return { text: thoughtsText(content), contentType: type, hiddenKind: false, reasoning: true };
    case 'reasoning_recap':
      return { text: str(content, 'content') ?? '', contentType: type, hiddenKind: false, reasoning: true };
    case 'user_editable_context': {
      const profile = str(content, 'user_profile');
      const instructions = str(content, 'user_instructions');
      const text = [profile && `User profile:\n${profile}`, instructions && `User instructions:\n${instructions}`]
        .filter(Boolean)
        .join('\n\n');
      return { text, contentType: type, hiddenKind: true, reasoning: false };
    }
    case 'model_editable_context':
      return { text: str(content, 'model_set_context') ?? '', contentType: type, hiddenKind: true, reasoning: false };
    case 'system_error':
      return plain(`[error: ${str(content, 'name') ?? 'system error'}] ${str(content, 'text') ?? ''}`.trimEnd(), type);
    case 'computer_output':
      return plain('[screenshot]', type);
    default: {
      ctx.unknownType(type);
      const parts = arr(content, 'parts');
      const text = parts ? renderParts(parts, ctx) : (str(content, 'text') ?? str(content, 'result') ?? '');
      return plain(text || `[${type}]`, type);
    }
  }
}
