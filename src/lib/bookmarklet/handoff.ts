import { isAllowedChatOrigin } from '../core/capture/origins';
import type { CapturePayload } from '../core/capture/payload';
import {
  READY,
  RECEIVED,
  VIA_BOOKMARKLET,
  VIA_CLIPBOARD,
  VIA_PARAM,
  isMessageOfType,
  type ReceivedMessage,
} from '../core/capture/protocol';
import type { Notice } from './notice';

/** How long the chat page waits for the capture page to announce it is ready. */
export const READY_TIMEOUT_MS = 15_000;
/** How often it checks whether the window it opened was cut off (closed or severed by COOP). */
const POLL_MS = 250;

export type HandoffResult = 'sent' | 'refused' | 'clipboard';

export interface HandoffOptions {
  readyTimeoutMs?: number;
}

function captureUrl(appOrigin: string, via: string): string {
  return `${appOrigin}/capture?${VIA_PARAM}=${via}`;
}

/** Copies text: the async Clipboard API first, then the legacy copy command. */
export async function copyText(win: Window, text: string): Promise<boolean> {
  try {
    await win.navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Not focused, no permission, or no async clipboard: try the legacy path.
  }
  const doc = win.document;
  const area = doc.createElement('textarea');
  area.value = text;
  Object.assign(area.style, { position: 'fixed', top: '0', left: '0', opacity: '0' });
  (doc.body ?? doc.documentElement).append(area);
  try {
    area.select();
    return doc.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

function openWindow(win: Window, url: string): Window | null {
  try {
    return win.open(url, '_blank');
  } catch {
    return null;
  }
}

async function clipboardFallback(win: Window, payload: CapturePayload, appOrigin: string, reason: string, notice: Notice) {
  const json = JSON.stringify(payload);
  const copy = () => copyText(win, json);
  const copied = await copy();
  const next = copied
    ? "The capture is on your clipboard: paste it into the box on Engram Vault's Capture page."
    : "Press “Copy again”, then paste it into the box on Engram Vault's Capture page.";
  notice.offerCopy(`${reason} ${next}`, copy, captureUrl(appOrigin, VIA_CLIPBOARD));
  return 'clipboard' as const;
}

/**
 * Hands the payload to the app: opens its capture page, waits for it to say it is ready (a message
 * from the app's exact origin, from the window just opened), then posts the payload to that exact
 * origin. When that cannot work (a popup blocker, a chat page whose opener policy cuts the link
 * to the new window, no answer in time, or a page the capture page does not accept messages
 * from) it copies the payload to the clipboard and says where to paste it.
 */
export async function handOff(
  win: Window,
  payload: CapturePayload,
  appOrigin: string,
  notice: Notice,
  options: HandoffOptions = {},
): Promise<HandoffResult> {
  if (!isAllowedChatOrigin(win.location.origin)) {
    // The capture page accepts messages only from the chat sites: copy first (this click is
    // still a user gesture), then open the page where it can be pasted.
    const result = await clipboardFallback(win, payload, appOrigin, 'Captured.', notice);
    win.open(captureUrl(appOrigin, VIA_CLIPBOARD), '_blank', 'noopener');
    return result;
  }
  const popup = openWindow(win, captureUrl(appOrigin, VIA_BOOKMARKLET));
  if (!popup) return clipboardFallback(win, payload, appOrigin, 'The browser blocked the new window.', notice);
  const opened = popup;
  notice.show('sending', 'Sending to Engram Vault…');

  const outcome = await new Promise<'sent' | 'refused' | 'cut' | 'timeout'>((resolve) => {
    const started = Date.now();
    let sent = false;
    const finish = (value: 'sent' | 'refused' | 'cut' | 'timeout') => {
      win.removeEventListener('message', onMessage);
      clearInterval(timer);
      resolve(value);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== appOrigin || event.source !== opened) return;
      if (isMessageOfType(event.data, READY) && !sent) {
        sent = true;
        opened.postMessage(payload, appOrigin);
      } else if (isMessageOfType(event.data, RECEIVED)) {
        finish((event.data as ReceivedMessage).ok ? 'sent' : 'refused');
      }
    };
    const timer = setInterval(() => {
      if (opened.closed) finish('cut');
      else if (Date.now() - started > (options.readyTimeoutMs ?? READY_TIMEOUT_MS)) finish('timeout');
    }, POLL_MS);
    win.addEventListener('message', onMessage);
  });

  if (outcome === 'sent') {
    notice.show('sent', 'Sent. Check what will be stored on the Capture page and confirm there.');
    return 'sent' as const;
  }
  if (outcome === 'refused') {
    notice.show('error', 'The Capture page could not accept this capture; it says why.');
    return 'refused' as const;
  }
  const reason =
    outcome === 'cut' ? "This site's opener policy cut the link to the window that opened." : 'The Capture page did not answer in time.';
  return clipboardFallback(win, payload, appOrigin, reason, notice);
}
