/**
 * The postMessage protocol between the bookmarklet (running in a chat page) and the capture page:
 *
 * 1. the bookmarklet opens `<app>/capture?via=bookmarklet` with `window.open`;
 * 2. the capture page posts `READY` to `window.opener`, once per allowed chat origin as the target
 *    origin, so the browser delivers it only if the opener really is one of them;
 * 3. the bookmarklet checks `event.origin === <app origin>` and `event.source` is the window it
 *    opened, then posts the payload (a `CapturePayload`) with the app's exact origin as target;
 * 4. the capture page accepts it only from an allowed origin and from `window.opener`, validates
 *    it, and answers `RECEIVED` to that exact origin.
 */
export const READY = 'engram-capture-ready';
export const RECEIVED = 'engram-capture-received';
export const PAYLOAD_TYPE = 'engram-capture';
export const PROTOCOL_VERSION = 1;

/** The query the bookmarklet adds when it opens the capture page. */
export const VIA_PARAM = 'via';
export const VIA_BOOKMARKLET = 'bookmarklet';
export const VIA_CLIPBOARD = 'clipboard';

export interface ReadyMessage {
  type: typeof READY;
  version: typeof PROTOCOL_VERSION;
}

export interface ReceivedMessage {
  type: typeof RECEIVED;
  ok: boolean;
}

export function isMessageOfType(data: unknown, type: string): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === type;
}
