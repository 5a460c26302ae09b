import { chatSourceForOrigin, type ChatSource } from '../core/capture/origins';
import type { CaptureMethod, CapturePayload, ConversationCapture, ResourceCapture } from '../core/capture/payload';
import { PAYLOAD_TYPE, PROTOCOL_VERSION } from '../core/capture/protocol';
import { nodeToText } from './dom-text';
import { conversationIdFrom, readThread, threadTitle } from './sites';

/** What the bookmarklet read, and a sentence saying how (shown to the person on the page). */
export interface PageReading {
  payload: CapturePayload;
  method: CaptureMethod;
  notice: string;
}

/** The parts of `window` the reader uses (a fixture DOM in tests). */
export interface PageWindow {
  document: Document;
  location: { href: string; origin: string };
  getSelection(): Selection | null;
}

const SITE_NAMES: Record<ChatSource, string> = { chatgpt: 'ChatGPT', claude: 'Claude', gemini: 'Gemini' };

function selectionText(win: PageWindow): string {
  const selection = win.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return '';
  const fragment = win.document.createDocumentFragment();
  for (let i = 0; i < selection.rangeCount; i++) fragment.append(selection.getRangeAt(i).cloneContents());
  // The structured text keeps code fences; toString() is the fallback for selections inside a
  // single text node or an input.
  return nodeToText(fragment) || selection.toString().trim();
}

function pageUrl(href: string): string | null {
  return /^https?:\/\//i.test(href) ? href : null;
}

function resource(win: PageWindow, source: ResourceCapture['source'], method: ResourceCapture['method'], text: string, now: Date) {
  const payload: ResourceCapture = {
    type: PAYLOAD_TYPE,
    version: PROTOCOL_VERSION,
    kind: 'resource',
    source,
    method,
    url: pageUrl(win.location.href),
    title: win.document.title.trim(),
    capturedAt: now.toISOString(),
    text,
  };
  return payload;
}

/**
 * The page's own text: on an ordinary page its article, else its main element, else the body; on
 * a chat site (whose turns are often <article>s) the main element, so the whole thread is kept.
 */
function mainText(doc: Document, chatSite: boolean): { text: string; method: 'article' | 'main-text' } {
  const article = chatSite ? null : doc.querySelector('article');
  const articleText = article ? nodeToText(article) : '';
  if (articleText) return { text: articleText, method: 'article' };
  const main = doc.querySelector('main, [role="main"]') ?? doc.body;
  return { text: main ? nodeToText(main) : '', method: 'main-text' };
}

function readChat(win: PageWindow, source: ChatSource, now: Date): PageReading | null {
  const messages = readThread(source, win.document);
  if (messages.length === 0) return null;
  const payload: ConversationCapture = {
    type: PAYLOAD_TYPE,
    version: PROTOCOL_VERSION,
    kind: 'conversation',
    source,
    method: 'markup',
    url: pageUrl(win.location.href),
    title: threadTitle(source, win.document, win.location.href),
    conversationId: conversationIdFrom(source, win.location.href),
    capturedAt: now.toISOString(),
    messages,
  };
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`;
  return { payload, method: 'markup', notice: `Read ${count} from this ${SITE_NAMES[source]} conversation.` };
}

/**
 * Reads the page: on a chat site its conversation (site markup → the person's selection → the main
 * text), elsewhere the selection or the article text as a resource. Throws only when the page
 * has no text at all.
 */
export function readPage(win: PageWindow, now: Date): PageReading {
  const source = chatSourceForOrigin(win.location.origin);
  if (source) {
    const chat = readChat(win, source, now);
    if (chat) return chat;
  }
  const site = source ? SITE_NAMES[source] : null;
  const unrecognized = site ? `The ${site} page layout was not recognized, so roles are unknown: ` : '';
  const selected = selectionText(win);
  if (selected) {
    return {
      payload: resource(win, source ?? 'web', 'selection', selected, now),
      method: 'selection',
      notice: `${unrecognized}captured your selection.`.replace(/^c/, 'C'),
    };
  }
  const { text, method } = mainText(win.document, source !== null);
  if (!text) throw new Error('This page has no text to capture. Select some text and try again.');
  const what = method === 'article' ? 'the article text' : "the page's main text";
  return {
    payload: resource(win, source ?? 'web', method, text, now),
    method,
    notice: `${unrecognized}captured ${what} (select text first to capture only that).`.replace(/^c/, 'C'),
  };
}
