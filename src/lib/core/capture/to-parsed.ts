import { derivedId, derivedMessageId } from '../import/stable-id';
import type { ParsedConversation, ParsedMessage, ParsedResource } from '../import/parsed';
import { normalizeMultiline } from '../text/normalize';
import type { CapturePayload } from './payload';

export type ParsedCapture = { kind: 'conversation'; conversation: ParsedConversation } | { kind: 'resource'; resource: ParsedResource };

/**
 * A capture as the importer's parsed form, with ids chosen so a capture and a later export of the
 * same conversation meet: the conversation keeps the site's id (from the URL; ChatGPT and Claude
 * exports use the same ids), messages keep the site's message id when the markup has one
 * (ChatGPT's data-message-id is the export's node id), and otherwise get the importer's
 * position-and-content id, so capturing again adds only what is new.
 */
export function captureToParsed(payload: CapturePayload): ParsedCapture {
  const at = Date.parse(payload.capturedAt);
  const capturedAt = Number.isFinite(at) ? at : null;
  if (payload.kind === 'resource') {
    // The page (without query or fragment) and the text: the same selection again is not new,
    // another selection on the same page is.
    const key = `${payload.url ? urlKey(payload.url) : ''}\n${normalizeMultiline(payload.text)}`;
    return {
      kind: 'resource',
      resource: {
        externalId: derivedId('capture', payload.source, key),
        title: payload.title || firstLine(payload.text),
        text: payload.text,
        // A page captured from the web (it has an address): someone else's text, tier web.
        ...(payload.url ? { tier: 'web' as const } : {}),
      },
    };
  }
  const messages: ParsedMessage[] = [];
  for (const [index, m] of payload.messages.entries()) {
    messages.push({
      externalId: m.externalId ?? derivedMessageId(index, m.role, m.text),
      role: m.role,
      text: m.text,
      createdAt: null,
      parentExternalId: messages[index - 1]?.externalId ?? null,
      onVisiblePath: true,
      hidden: false,
    });
  }
  // A thread without an id in its URL (a new chat) is named by its first message, which stays the
  // same while the thread grows.
  const externalId = payload.conversationId ?? derivedId('capture-first', payload.source, normalizeMultiline(payload.messages[0]!.text));
  return {
    kind: 'conversation',
    conversation: {
      source: payload.source,
      externalId,
      title: payload.title || firstLine(payload.messages[0]!.text),
      createdAt: capturedAt,
      updatedAt: capturedAt,
      messages,
      notes: [],
    },
  };
}

function urlKey(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
