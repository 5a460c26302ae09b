import { err, vaultError, type Result } from '../errors';
import { checkTextSize, parseCapturePayload, type CapturePayload, type ResourceCapture } from './payload';
import { PAYLOAD_TYPE, PROTOCOL_VERSION } from './protocol';

/** A title for text that has none: its first non-empty line, shortened. */
export function titleFromText(text: string, max = 120): string {
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? '';
  const clean = line.replace(/\s+/gu, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function looksLikeCaptureJson(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === PAYLOAD_TYPE;
}

/**
 * What the paste box accepts: the bookmarklet's clipboard fallback (its JSON, validated exactly
 * like a posted payload) or any other text, kept as a resource. Never throws.
 */
export function payloadFromPaste(text: string, now: number): Result<CapturePayload> {
  const sized = checkTextSize(text);
  if (!sized.ok) return sized;
  const trimmed = text.trim();
  if (trimmed.length === 0) return err(vaultError('capture/invalid', 'There is nothing to capture: the box is empty.'));
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (looksLikeCaptureJson(parsed)) return parseCapturePayload(parsed);
  }
  const resource: ResourceCapture = {
    type: PAYLOAD_TYPE,
    version: PROTOCOL_VERSION,
    kind: 'resource',
    source: 'paste',
    method: 'paste',
    url: null,
    title: titleFromText(trimmed),
    capturedAt: new Date(now).toISOString(),
    text: trimmed,
  };
  return parseCapturePayload(resource);
}

export interface SharedData {
  title?: string | null;
  text?: string | null;
  url?: string | null;
}

function httpUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * What "Share → Engram Vault" sends (the manifest's share_target: GET /capture?title&text&url).
 * Null when nothing was shared. Android puts a shared link in `text` more often than in `url`.
 */
export function payloadFromShare(shared: SharedData, now: number): Result<CapturePayload> | null {
  const title = (shared.title ?? '').trim();
  const text = (shared.text ?? '').trim();
  let url = shared.url ? httpUrl(shared.url) : null;
  let body = text;
  if (!url && text && httpUrl(text)) {
    url = httpUrl(text);
    body = '';
  }
  if (!title && !body && !url) return null;
  const content = body || url || title;
  const resource: ResourceCapture = {
    type: PAYLOAD_TYPE,
    version: PROTOCOL_VERSION,
    kind: 'resource',
    source: 'share',
    method: 'share',
    url,
    title: title || titleFromText(body) || (url ? new URL(url).host : 'Shared text'),
    capturedAt: new Date(now).toISOString(),
    text: content,
  };
  return parseCapturePayload(resource);
}
