import type { CapturedMessage } from '../core/capture/payload';
import type { ChatSource } from '../core/capture/origins';
import { nodeToText } from './dom-text';

/**
 * How each chat site's conversation page is read. These selectors follow the sites' public markup
 * and are the first thing to re-check when a site changes its pages: if `turns` finds nothing, the
 * bookmarklet falls back to the person's selection, then to the main text, and says so.
 */
export interface SiteSelectors {
  /** Every message of the thread, in document order (an element per turn). */
  turns: string;
  /** Inside a turn: the elements holding the text (all outermost matches, in order; else the turn itself). */
  content: string;
  /** Elements whose text is the conversation's title (the first non-empty one wins). */
  title: string;
  /** The conversation id in the URL path. */
  conversationPath: RegExp;
  /** Suffix the site adds to document.title. */
  titleSuffix: RegExp;
}

export const SITE_SELECTORS: Record<ChatSource, SiteSelectors> = {
  chatgpt: {
    turns: '[data-message-author-role]',
    content: '.markdown, .whitespace-pre-wrap',
    title: '[data-testid="conversation-title"]',
    conversationPath: /\/(?:c|share)\/([\w-]+)/,
    titleSuffix: /\s*[-|–]\s*ChatGPT$/,
  },
  claude: {
    turns:
      '[data-testid="user-message"], .font-user-message, .font-claude-message, .font-claude-response, [data-testid="assistant-message"]',
    content: '.standard-markdown, .progressive-markdown',
    title: '[data-testid="chat-title-button"], [data-testid="chat-menu-trigger"]',
    conversationPath: /\/chat\/([\w-]+)/,
    titleSuffix: /\s*[-|–]\s*Claude$/,
  },
  gemini: {
    turns: 'user-query, model-response',
    content: '.query-text, message-content, .markdown',
    title: '.conversation.selected .conversation-title, [data-test-id="conversation-title"]',
    conversationPath: /\/app\/([\w-]+)/,
    titleSuffix: /\s*[-|–]\s*(?:Google\s+)?Gemini$/,
  },
};

type Role = CapturedMessage['role'];

function roleOf(source: ChatSource, turn: Element): Role | null {
  if (source === 'chatgpt') {
    const role = turn.getAttribute('data-message-author-role');
    return role === 'user' || role === 'assistant' || role === 'system' || role === 'tool' ? role : null;
  }
  if (source === 'claude') {
    return turn.matches('[data-testid="user-message"], .font-user-message') ? 'user' : 'assistant';
  }
  return turn.tagName.toLowerCase() === 'user-query' ? 'user' : 'assistant';
}

/**
 * Keeps the outermost of nested matches (a turn inside a turn is the same message). The input is
 * in document order, so an ancestor match is always the last one kept.
 */
function outermost(elements: readonly Element[]): Element[] {
  const kept: Element[] = [];
  for (const el of elements) {
    const last = kept[kept.length - 1];
    if (!last || !last.contains(el)) kept.push(el);
  }
  return kept;
}

/** The messages the page shows, in order; [] when the markup is not recognized. */
export function readThread(source: ChatSource, doc: Document): CapturedMessage[] {
  const selectors = SITE_SELECTORS[source];
  const turns = outermost(Array.from(doc.querySelectorAll(selectors.turns)));
  const messages: CapturedMessage[] = [];
  for (const turn of turns) {
    const role = roleOf(source, turn);
    if (!role) continue;
    const parts = outermost(Array.from(turn.querySelectorAll(selectors.content)));
    const text = (parts.length > 0 ? parts : [turn])
      .map((part) => nodeToText(part))
      .filter(Boolean)
      .join('\n\n');
    if (!text) continue;
    messages.push({ role, text, externalId: turn.getAttribute('data-message-id') });
  }
  return messages;
}

export function conversationIdFrom(source: ChatSource, href: string): string | null {
  const match = SITE_SELECTORS[source].conversationPath.exec(new URL(href).pathname);
  return match?.[1] ?? null;
}

const GENERIC_TITLES = /^(chatgpt|claude|gemini|google gemini|new chat)?$/i;

/** The conversation's title: the site's title element, the page title, or the sidebar link to this page. */
export function threadTitle(source: ChatSource, doc: Document, href: string): string {
  const selectors = SITE_SELECTORS[source];
  for (const el of Array.from(doc.querySelectorAll(selectors.title))) {
    const text = el.textContent?.trim();
    if (text) return text;
  }
  const page = doc.title.replace(selectors.titleSuffix, '').trim();
  if (!GENERIC_TITLES.test(page)) return page;
  // The sidebar's link to the open conversation carries its title.
  const path = new URL(href).pathname;
  for (const link of Array.from(doc.querySelectorAll('a[href]'))) {
    const target = link.getAttribute('href') ?? '';
    if (target !== path && !target.endsWith(path)) continue;
    const text = link.textContent?.trim();
    if (text && path.length > 1) return text;
  }
  return '';
}
