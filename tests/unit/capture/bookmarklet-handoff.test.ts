import { readFileSync } from 'node:fs';
import { JSDOM, type DOMWindow } from 'jsdom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBookmarklet } from '../../../vite.config';
import { handOff } from '../../../src/lib/bookmarklet/handoff';
import { APP_ORIGIN_TOKEN, bookmarkletHref, bookmarkletScript } from '../../../src/lib/bookmarklet/href';
import type { Notice } from '../../../src/lib/bookmarklet/notice';
import type { ResourceCapture } from '../../../src/lib/core/capture/payload';
import { READY, RECEIVED } from '../../../src/lib/core/capture/protocol';

/*
 * The handoff from the chat page to the capture page, on jsdom windows: the payload goes only to
 * the app's exact origin and only after a READY from the window the bookmarklet opened; every
 * failure falls back to the clipboard. Then the built bookmarklet itself: self-contained, no
 * network, and it works end to end on the saved ChatGPT page.
 */
const APP = 'http://127.0.0.1:4183';
const payload: ResourceCapture = {
  type: 'engram-capture',
  version: 1,
  kind: 'resource',
  source: 'claude',
  method: 'selection',
  url: 'https://claude.ai/chat/1',
  title: 'T',
  capturedAt: '2025-01-01T00:00:00.000Z',
  text: 'hello',
};

const windows: JSDOM[] = [];
function jsdom(html: string, url: string, options: ConstructorParameters<typeof JSDOM>[1] = {}): JSDOM {
  const dom = new JSDOM(html, { url, ...options });
  windows.push(dom);
  return dom;
}
afterEach(() => {
  for (const dom of windows.splice(0)) dom.window.close();
});

interface Harness {
  chat: DOMWindow;
  popup: DOMWindow;
  posted: ReturnType<typeof vi.fn>;
  copied: string[];
  notice: Notice & { show: ReturnType<typeof vi.fn>; offerCopy: ReturnType<typeof vi.fn> };
  open: ReturnType<typeof vi.fn>;
}

function harness(chatOrigin = 'https://claude.ai', popupResult: 'window' | 'blocked' = 'window'): Harness {
  const chat = jsdom('<body></body>', `${chatOrigin}/chat/1`).window;
  const popup = jsdom('', `${APP}/capture`).window;
  const posted = vi.fn();
  popup.postMessage = posted as unknown as DOMWindow['postMessage'];
  const open = vi.fn(() => (popupResult === 'window' ? popup : null));
  chat.open = open as unknown as DOMWindow['open'];
  const copied: string[] = [];
  Object.defineProperty(chat.navigator, 'clipboard', { value: { writeText: async (text: string) => void copied.push(text) } });
  const notice = { show: vi.fn(), offerCopy: vi.fn() };
  return { chat, popup, posted, copied, notice, open };
}

function message(target: DOMWindow, data: unknown, origin: string, source: DOMWindow) {
  const event = new target.MessageEvent('message', { data, origin });
  Object.defineProperty(event, 'source', { value: source });
  target.dispatchEvent(event);
}

const run = (h: Harness, readyTimeoutMs = 1_500) => handOff(h.chat as unknown as Window, payload, APP, h.notice, { readyTimeoutMs });

describe('bookmarklet handoff', () => {
  it('posts the payload to the exact app origin after READY from the opened window, and reports success', async () => {
    const h = harness();
    const result = run(h);
    expect(h.open).toHaveBeenCalledWith(`${APP}/capture?via=bookmarklet`, '_blank');
    message(h.chat, { type: READY, version: 1 }, APP, h.popup);
    expect(h.posted).toHaveBeenCalledTimes(1);
    expect(h.posted).toHaveBeenCalledWith(payload, APP);
    message(h.chat, { type: RECEIVED, ok: true }, APP, h.popup);
    expect(await result).toBe('sent');
    expect(h.notice.show).toHaveBeenLastCalledWith('sent', expect.stringContaining('confirm'));
    expect(h.copied).toEqual([]);
  });

  it('ignores READY from another origin or another window, then falls back to the clipboard', async () => {
    const h = harness();
    const result = run(h, 800);
    const stranger = jsdom('', 'https://evil.example/').window;
    message(h.chat, { type: READY, version: 1 }, 'https://evil.example', h.popup);
    message(h.chat, { type: READY, version: 1 }, `${APP}.evil.example`, h.popup);
    message(h.chat, { type: READY, version: 1 }, APP, stranger);
    message(h.chat, { type: READY, version: 1 }, 'null', h.popup);
    expect(await result).toBe('clipboard');
    expect(h.posted).not.toHaveBeenCalled();
    expect(JSON.parse(h.copied[0] ?? '')).toEqual(payload);
    expect(h.notice.offerCopy).toHaveBeenCalledWith(
      expect.stringMatching(/did not answer in time.*on your clipboard/),
      expect.any(Function),
      `${APP}/capture?via=clipboard`,
    );
  });

  it('copies to the clipboard when the popup is blocked', async () => {
    const h = harness('https://claude.ai', 'blocked');
    expect(await run(h)).toBe('clipboard');
    expect(h.notice.offerCopy.mock.calls[0]?.[0]).toMatch(/blocked the new window/);
    expect(h.copied).toHaveLength(1);
  });

  it('copies to the clipboard when the opener policy cuts the window (it reads as closed)', async () => {
    const h = harness();
    Object.defineProperty(h.popup, 'closed', { value: true });
    expect(await run(h, 10_000)).toBe('clipboard');
    expect(h.notice.offerCopy.mock.calls[0]?.[0]).toMatch(/opener policy/);
  });

  it('reports a capture the app refused', async () => {
    const h = harness();
    const result = run(h);
    message(h.chat, { type: READY, version: 1 }, APP, h.popup);
    message(h.chat, { type: RECEIVED, ok: false }, APP, h.popup);
    expect(await result).toBe('refused');
    expect(h.notice.show).toHaveBeenLastCalledWith('error', expect.any(String));
  });

  it('on a page that is not a chat site, copies first and opens the capture page without an opener', async () => {
    const h = harness('https://example.org');
    expect(await run(h)).toBe('clipboard');
    expect(h.copied).toHaveLength(1);
    expect(h.open).toHaveBeenCalledWith(`${APP}/capture?via=clipboard`, '_blank', 'noopener');
    expect(h.posted).not.toHaveBeenCalled();
  });
});

describe('the built bookmarklet', () => {
  it('is one self-contained script that names the app origin once and never posts to "*"', async () => {
    const source = await buildBookmarklet();
    expect(source.split(APP_ORIGIN_TOKEN)).toHaveLength(2);
    for (const forbidden of [
      /\bimport\s*\(/,
      /\bimport\s+[\w{*]/,
      /\brequire\(/,
      /\bfetch\(/,
      /XMLHttpRequest/,
      /WebSocket/,
      /EventSource/,
    ]) {
      expect(source).not.toMatch(forbidden);
    }
    for (const forbidden of [
      /sendBeacon/,
      /importScripts/,
      /createElement\(\s*[`'"]script/,
      /innerHTML/,
      /postMessage\([^)]*[`'"]\*[`'"]/,
    ]) {
      expect(source).not.toMatch(forbidden);
    }
    const href = bookmarkletHref(source, APP);
    expect(href.startsWith('javascript:')).toBe(true);
    expect(bookmarkletScript(href)).toContain(JSON.stringify(APP));
    expect(href.length).toBeLessThan(64 * 1024);
  });

  it('run on the saved ChatGPT page: reads the thread, loads nothing, hands it over to the app', async () => {
    const want = JSON.parse(readFileSync(new URL('../../../e2e/fixtures/chat-pages/chatgpt.expected.json', import.meta.url), 'utf8')) as {
      path: string;
      messages: { role: string; text: string }[];
    };
    const html = readFileSync(new URL('../../../e2e/fixtures/chat-pages/chatgpt.html', import.meta.url), 'utf8');
    const dom = jsdom(html, `https://chatgpt.com${want.path}`, { runScripts: 'outside-only' });
    const chat = dom.window;
    const popup = jsdom('', `${APP}/capture`).window;
    const posted = vi.fn();
    popup.postMessage = posted as unknown as DOMWindow['postMessage'];
    chat.open = vi.fn(() => popup) as unknown as DOMWindow['open'];
    const network = vi.fn();
    Object.assign(chat, { fetch: network, XMLHttpRequest: network, WebSocket: network, EventSource: network });
    const scriptsBefore = chat.document.scripts.length;

    chat.eval(bookmarkletScript(bookmarkletHref(await buildBookmarklet(), APP)));
    message(chat, { type: READY, version: 1 }, APP, popup);
    expect(posted).toHaveBeenCalledTimes(1);
    const [sent, target] = posted.mock.calls[0] as [{ messages: { role: string; text: string }[] }, string];
    expect(target).toBe(APP);
    expect(sent.messages.map((m) => ({ role: m.role, text: m.text }))).toEqual(want.messages);
    message(chat, { type: RECEIVED, ok: true }, APP, popup);
    await vi.waitFor(() => expect(chat.document.getElementById('engram-capture-notice')?.getAttribute('data-state')).toBe('sent'));
    expect(network).not.toHaveBeenCalled();
    expect(chat.document.scripts.length).toBe(scriptsBefore);
  });
});
