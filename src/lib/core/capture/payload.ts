import { z } from 'zod';
import { err, ok, vaultError, type Result } from '../errors';
import { PAYLOAD_TYPE, PROTOCOL_VERSION } from './protocol';
import { utf8Length } from '../text/utf8';

// The app's CSP forbids eval (script-src has no 'unsafe-eval'). Zod otherwise probes
// `new Function` once to speed up object parsing, which the browser reports as a CSP violation
// even though zod catches the error. Same results, no probe. (Global: belongs in app start-up
// once more modules use zod.)
z.config({ jitless: true });

/**
 * What a capture may hold. A payload over any limit is refused whole (`capture/too-large`), never
 * truncated silently: the person is told to capture less (a selection) or to export the archive.
 */
export const CAPTURE_LIMITS = {
  /** The whole payload as JSON, in UTF-8 bytes (a long thread with code is a few MB). */
  maxBytes: 8 * 1024 * 1024,
  maxMessages: 5_000,
  /** One message's text, in UTF-16 code units (JavaScript string length). */
  maxMessageChars: 1_000_000,
  /** The text of a resource (a selection or an article). */
  maxResourceChars: 2_000_000,
  maxTitleChars: 1_000,
  maxUrlChars: 4_096,
  maxIdChars: 256,
} as const;

export const CAPTURE_METHODS = ['markup', 'selection', 'article', 'main-text', 'paste', 'share'] as const;
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

export const RESOURCE_SOURCES = ['chatgpt', 'claude', 'gemini', 'web', 'paste', 'share'] as const;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const url = z.string().max(CAPTURE_LIMITS.maxUrlChars).refine(isHttpUrl, 'must be an http(s) URL').nullable();
const title = z.string().max(CAPTURE_LIMITS.maxTitleChars);
const capturedAt = z.iso.datetime({ offset: true });
const envelope = { type: z.literal(PAYLOAD_TYPE), version: z.literal(PROTOCOL_VERSION), url, title, capturedAt };

export const capturedMessageSchema = z.strictObject({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  text: z.string().min(1).max(CAPTURE_LIMITS.maxMessageChars),
  /** The site's own id of the message when its markup has one (ChatGPT's data-message-id). */
  externalId: z.string().max(CAPTURE_LIMITS.maxIdChars).nullable(),
});

/** A conversation read from a chat site's markup: messages in thread order, with roles. */
export const conversationCaptureSchema = z.strictObject({
  ...envelope,
  kind: z.literal('conversation'),
  source: z.enum(['chatgpt', 'claude', 'gemini']),
  method: z.literal('markup'),
  /** The site's conversation id (from the URL), or null when the URL has none. */
  conversationId: z.string().min(1).max(CAPTURE_LIMITS.maxIdChars).nullable(),
  messages: z.array(capturedMessageSchema).min(1).max(CAPTURE_LIMITS.maxMessages),
});

/** Text without roles: a selection, an article, pasted text or a shared text/URL. */
export const resourceCaptureSchema = z.strictObject({
  ...envelope,
  kind: z.literal('resource'),
  source: z.enum(RESOURCE_SOURCES),
  method: z.enum(['selection', 'article', 'main-text', 'paste', 'share']),
  text: z.string().min(1).max(CAPTURE_LIMITS.maxResourceChars),
});

export const capturePayloadSchema = z.discriminatedUnion('kind', [conversationCaptureSchema, resourceCaptureSchema]);

export type CapturedMessage = z.infer<typeof capturedMessageSchema>;
export type ConversationCapture = z.infer<typeof conversationCaptureSchema>;
export type ResourceCapture = z.infer<typeof resourceCaptureSchema>;
export type CapturePayload = z.infer<typeof capturePayloadSchema>;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;

function tooLarge(bytes: number) {
  return vaultError(
    'capture/too-large',
    `The capture is ${mib(bytes)}; at most ${mib(CAPTURE_LIMITS.maxBytes)} can be captured at once. Select a part of the page and capture that, or export the archive and import it.`,
    { bytes, maxBytes: CAPTURE_LIMITS.maxBytes },
  );
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'payload'}: ${issue.message}`)
    .join('; ');
}

/**
 * Validates a payload received by postMessage (or parsed from pasted JSON): size first, then the
 * schema. Never throws; a bad payload is a `capture/invalid` or `capture/too-large` result.
 */
export function parseCapturePayload(data: unknown): Result<CapturePayload> {
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    json = undefined;
  }
  if (json === undefined) return err(vaultError('capture/invalid', 'The capture is not plain data (it cannot be read as JSON).'));
  const bytes = utf8Length(json, CAPTURE_LIMITS.maxBytes);
  if (bytes > CAPTURE_LIMITS.maxBytes) return err(tooLarge(bytes));
  return validate(data);
}

function validate(data: unknown): Result<CapturePayload> {
  const parsed = capturePayloadSchema.safeParse(data);
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues;
  const oversize = issues.filter((issue) => issue.code === 'too_big');
  if (oversize.length > 0) {
    return err(
      vaultError('capture/too-large', `A part of the capture is over its limit (${describeIssues(oversize)}).`, {
        issues: oversize.map((i) => ({ path: i.path.map(String), message: i.message })),
      }),
    );
  }
  return err(
    vaultError('capture/invalid', `The capture is not in the expected form (${describeIssues(issues)}).`, {
      issues: issues.slice(0, 10).map((i) => ({ path: i.path.map(String), message: i.message })),
    }),
  );
}

/** Size check for text before it is parsed (pasted JSON or plain text). */
export function checkTextSize(text: string): Result<string> {
  const bytes = utf8Length(text, CAPTURE_LIMITS.maxBytes);
  return bytes > CAPTURE_LIMITS.maxBytes ? err(tooLarge(bytes)) : ok(text);
}
