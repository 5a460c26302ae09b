/**
 * Turns a part of a page into Markdown-shaped text: paragraphs, headings, lists, quotes, tables,
 * links, and code blocks kept verbatim inside fences with their language. Runs in the chat page
 * (inside the bookmarklet) and in tests on fixture DOMs, so it checks node types, not classes of a
 * particular realm, and reads no layout except `checkVisibility` where the browser has it.
 */

const ELEMENT = 1;
const TEXT = 3;
const FRAGMENT = 11;

/** Never part of what a person reads as the message. */
const SKIP_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'BUTTON',
  'SVG',
  'INPUT',
  'TEXTAREA',
  'SELECT',
  'IFRAME',
  'OBJECT',
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'IMG',
  'PICTURE',
  'FORM',
  'NAV',
]);

/** Screen-reader-only labels ("You said:", "ChatGPT said:") that are not message text. */
const SKIP_CLASSES = ['sr-only', 'visually-hidden', 'cdk-visually-hidden', 'code-block-decoration'];

const BLOCK_TAGS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'ASIDE',
  'HEADER',
  'FOOTER',
  'FIGURE',
  'FIGCAPTION',
  'DETAILS',
  'SUMMARY',
  'DL',
  'DT',
  'DD',
  'ADDRESS',
]);

/** A code block is swapped for this marker until the surrounding text has been tidied. */
const CODE_MARK = '\u0000';

interface Context {
  pre: boolean;
  codes: string[];
  listDepth: number;
}

function isSkipped(el: Element): boolean {
  if (SKIP_TAGS.has(el.tagName.toUpperCase())) return true;
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  for (const name of SKIP_CLASSES) if (el.classList.contains(name)) return true;
  const check = (el as Element & { checkVisibility?: () => boolean }).checkVisibility;
  // Only in a rendered page: a detached node or a test DOM has no layout to ask.
  if (typeof check === 'function' && el.isConnected && el.ownerDocument.defaultView?.getComputedStyle) {
    try {
      if (!check.call(el)) return true;
    } catch {
      // An engine without the method's full support: treat as visible.
    }
  }
  return false;
}

function keepsWhitespace(el: Element, tag: string): boolean {
  if (/(^|\s)(whitespace-pre|whitespace-pre-wrap|whitespace-pre-line|whitespace-break-spaces)(\s|$)/.test(el.getAttribute('class') ?? '')) {
    return true;
  }
  // Computed style only for elements that hold text blocks (it is the slow part on long threads).
  if (!BLOCK_TAGS.has(tag) && tag !== 'SPAN') return false;
  const style = el.ownerDocument.defaultView?.getComputedStyle?.(el);
  const mode = style?.whiteSpace ?? '';
  return mode.startsWith('pre') || mode === 'break-spaces';
}

/** The language of a code block: `language-x` class, a data attribute, or a one-word header. */
export function codeLanguage(pre: Element): string {
  const code = pre.querySelector('code') ?? pre;
  for (const el of [code, pre]) {
    const match = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(el.getAttribute('class') ?? '');
    if (match?.[1]) return match[1];
    const data = el.getAttribute('data-language') ?? el.getAttribute('data-lang');
    if (data && /^[\w+#.-]{1,30}$/.test(data)) return data;
  }
  // ChatGPT and Gemini show the language as a short label in the block's header.
  const container = pre.closest('code-block') ?? pre;
  const label = container.querySelector('.code-block-decoration span, [data-code-language]') ?? firstLabel(pre);
  const text = label?.textContent?.trim() ?? '';
  return /^[\w+#.-]{1,30}$/.test(text) ? text.toLowerCase() : '';
}

function firstLabel(pre: Element): Element | null {
  for (const child of Array.from(pre.children)) {
    if (child.tagName === 'CODE' || child.querySelector('code')) continue;
    const text = child.textContent?.trim() ?? '';
    if (text.length > 0 && text.length <= 30) return child;
  }
  // ChatGPT nests the header one level down: pre > div > (div.label, div.buttons, div > code).
  const inner = pre.firstElementChild;
  if (inner && inner.querySelector('code')) {
    for (const child of Array.from(inner.children)) {
      if (child.querySelector('code') || child.tagName === 'CODE') continue;
      const text = child.textContent?.trim() ?? '';
      if (/^[\w+#.-]{1,30}$/.test(text)) return child;
    }
  }
  return null;
}

/** A fenced block that survives backticks inside the code. */
export function fence(code: string, language: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${code.replace(/\n+$/, '')}\n${ticks}`;
}

function preText(pre: Element): string {
  const code = pre.querySelector('code');
  return (code ?? pre).textContent ?? '';
}

function inlineCode(text: string): string {
  const ticks = text.includes('`') ? '``' : '`';
  return `${ticks}${text}${ticks}`;
}

function tex(el: Element): string | null {
  const annotation = el.querySelector('annotation[encoding="application/x-tex"]');
  const source = annotation?.textContent?.trim();
  if (!source) return null;
  return el.classList.contains('katex-display') || el.parentElement?.classList.contains('katex-display') ? `$$${source}$$` : `$${source}$`;
}

/** A marker for the text just pushed to `ctx.codes`, put back verbatim after tidying. */
function protect(ctx: Context): string {
  return `${CODE_MARK}${ctx.codes.length - 1}${CODE_MARK}`;
}

function children(node: Node, ctx: Context): string {
  let out = '';
  for (const child of Array.from(node.childNodes)) out += render(child, ctx);
  return out;
}

/**
 * A code block's language label that sits outside the <pre> (Claude: a header div before the div
 * holding the <pre>): the fence already carries the language, so the label is dropped.
 */
function isCodeLabel(el: Element): boolean {
  if (el.children.length > 0) return false;
  const text = el.textContent?.trim().toLowerCase() ?? '';
  if (!/^[\w+#.-]{1,30}$/.test(text)) return false;
  const next = el.nextElementSibling;
  const pre = next?.tagName === 'PRE' ? next : next?.querySelector('pre');
  return pre ? codeLanguage(pre) === text : false;
}

function listItem(el: Element, ctx: Context): string {
  const parent = el.parentElement;
  const ordered = parent?.tagName === 'OL';
  const siblings = parent ? Array.from(parent.children).filter((c) => c.tagName === 'LI') : [el];
  const start = Number(parent?.getAttribute('start') ?? '1') || 1;
  const marker = ordered ? `${start + siblings.indexOf(el)}. ` : '- ';
  // Continuation lines (and nested lists) are indented under the marker.
  const inner = children(el, { ...ctx, listDepth: ctx.listDepth + 1 }).trim();
  return `\n${marker}${inner.replace(/\n/g, '\n  ')}`;
}

function renderElement(el: Element, ctx: Context): string {
  if (isSkipped(el) || isCodeLabel(el)) return '';
  const tag = el.tagName.toUpperCase();
  if (el.classList.contains('katex')) {
    const math = tex(el);
    if (math) return math;
  }
  switch (tag) {
    case 'PRE':
      ctx.codes.push(fence(preText(el), codeLanguage(el)));
      return `\n\n${protect(ctx)}\n\n`;
    case 'CODE':
      return ctx.pre ? (el.textContent ?? '') : inlineCode(el.textContent ?? '');
    case 'BR':
      return '\n';
    case 'HR':
      return '\n\n---\n\n';
    case 'H1':
    case 'H2':
    case 'H3':
    case 'H4':
    case 'H5':
    case 'H6':
      return `\n\n${'#'.repeat(Number(tag[1]))} ${children(el, ctx).trim()}\n\n`;
    case 'UL':
    case 'OL':
      // A nested list continues its item's text on the next lines (each item starts with \n).
      return ctx.listDepth > 0 ? `${children(el, ctx)}\n` : `\n\n${children(el, ctx)}\n\n`;
    case 'LI':
      return listItem(el, ctx);
    case 'BLOCKQUOTE': {
      const inner = children(el, ctx).trim();
      return `\n\n${inner
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}\n\n`;
    }
    case 'TABLE':
      return `\n\n${children(el, ctx)}\n\n`;
    case 'TR': {
      const cells = Array.from(el.children).map((cell) => children(cell, ctx).replace(/\s+/g, ' ').trim());
      const row = `| ${cells.join(' | ')} |`;
      const isHeader = Array.from(el.children).every((cell) => cell.tagName === 'TH');
      return isHeader ? `\n${row}\n|${cells.map(() => ' --- |').join('')}` : `\n${row}`;
    }
    case 'STRONG':
    case 'B': {
      const inner = children(el, ctx);
      return inner.trim() ? `**${inner.trim()}**` : inner;
    }
    case 'EM':
    case 'I': {
      const inner = children(el, ctx);
      return inner.trim() ? `*${inner.trim()}*` : inner;
    }
    case 'A': {
      const inner = children(el, ctx);
      const href = el.getAttribute('href') ?? '';
      return /^https?:\/\//i.test(href) && inner.trim() && inner.trim() !== href ? `[${inner.trim()}](${href})` : inner;
    }
    default: {
      let inner: string;
      if (!ctx.pre && keepsWhitespace(el, tag)) {
        // Pre-wrapped text (a user's message) keeps its line breaks and indentation verbatim.
        ctx.codes.push(children(el, { ...ctx, pre: true }));
        inner = protect(ctx);
      } else {
        inner = children(el, ctx);
      }
      return BLOCK_TAGS.has(tag) ? `\n${inner}\n` : inner;
    }
  }
}

function render(node: Node, ctx: Context): string {
  if (node.nodeType === TEXT) {
    const data = (node as Text).data;
    return ctx.pre ? data : data.replace(/[ \t\n\r\f]+/g, ' ');
  }
  if (node.nodeType === ELEMENT) return renderElement(node as Element, ctx);
  if (node.nodeType === FRAGMENT) return children(node, ctx);
  return '';
}

const LIST_MARKER = /^(?:- |\d+\. )/;
const MARKER = new RegExp(`${CODE_MARK}(\\d+)${CODE_MARK}`, 'g');

/** Tidies spacing outside protected text (code blocks, pre-wrapped text), then puts it back verbatim. */
function tidy(text: string, codes: readonly string[]): string {
  let tidied = text
    .replace(/[ \t]+\n/g, '\n')
    // Indentation left over from HTML formatting goes, except before a nested list item.
    .replace(/\n[ \t]+(?=\S)/g, (match: string, offset: number, all: string) =>
      LIST_MARKER.test(all.slice(offset + match.length)) ? match : '\n',
    )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  // Protected text may itself hold markers (a code block inside pre-wrapped text).
  for (let round = 0; round < 8 && tidied.includes(CODE_MARK); round++) {
    tidied = tidied.replace(MARKER, (_, index: string) => codes[Number(index)] ?? '');
  }
  return tidied;
}

/** The readable text of an element (or a fragment from a selection), as Markdown. */
export function nodeToText(node: Node): string {
  const ctx: Context = { pre: false, codes: [], listDepth: 0 };
  return tidy(render(node, ctx), ctx.codes);
}
