import type { TrustedHTML } from 'trusted-types/lib';
import type { Config, DOMPurify } from 'dompurify';
import { Marked, type Tokens } from 'marked';

/**
 * Markdown → HTML that is safe to insert: the one renderer behind `src/lib/ui/SafeHtml.svelte`
 * (the only `{@html}` in the app). Two walls:
 *
 * 1. marked never emits raw HTML: HTML inside the Markdown is shown as text, and images become
 *    inert links (nothing is fetched when a message is shown);
 * 2. DOMPurify then keeps only a short list of formatting tags, no event handlers, no style, and
 *    links only to http(s) and mailto; every link opens in a new tab with rel="noopener noreferrer".
 *
 * DOMPurify needs a DOM: the caller passes an instance bound to the browser's window (or, in
 * tests, to a jsdom window). Pure otherwise.
 */

export const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'sup',
  'sub',
];

export const PURIFY_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  SAFE_FOR_TEMPLATES: false,
  WHOLE_DOCUMENT: false,
  RETURN_DOM: false,
  RETURN_DOM_FRAGMENT: false,
};

const CODE_CLASS = /^language-[\w+#.-]{1,40}$/;

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

function isHttpUrl(href: string): boolean {
  return /^https?:\/\//i.test(href.trim());
}

function markdownParser(): Marked {
  const marked = new Marked({ gfm: true, breaks: true, async: false });
  marked.use({
    renderer: {
      // Raw HTML in a message is text the person (or the model) wrote: show it, never run it.
      html(token: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(token.text);
      },
      // An image would be fetched the moment it is shown: offer it as a link instead.
      image(token: Tokens.Image): string {
        const label = `image: ${token.text || 'untitled'}`;
        return isHttpUrl(token.href) ? `<a href="${escapeHtml(token.href)}">${escapeHtml(label)}</a>` : escapeHtml(`[${label}]`);
      },
    },
  });
  return marked;
}

/** Binds the sanitizer's hooks to a DOMPurify instance of its own (hooks are per instance). */
function configurePurifier(purify: DOMPurify): DOMPurify {
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'class') {
      const kept = data.attrValue.split(/\s+/).filter((name) => CODE_CLASS.test(name));
      if (kept.length === 0) data.keepAttr = false;
      else data.attrValue = kept.join(' ');
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      if (node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    }
  });
  return purify;
}

export type MarkdownRenderer = (markdown: string) => string;

/** A renderer bound to one DOMPurify instance; create it once and reuse it. */
export function createMarkdownRenderer(purify: DOMPurify): MarkdownRenderer {
  const marked = markdownParser();
  const purifier = configurePurifier(purify);
  return (markdown: string) => {
    const html = marked.parse(markdown, { async: false });
    return purifier.sanitize(html, PURIFY_CONFIG);
  };
}

/**
 * The same renderer for the page, which runs under Trusted Types (`require-trusted-types-for
 * 'script'`): the sanitized HTML comes back as a TrustedHTML made by DOMPurify's own policy, the
 * only HTML an innerHTML sink there accepts (a string is refused by the app's default policy).
 * Where the browser has no Trusted Types it is a plain string, as before.
 */
/** Sanitized HTML: a TrustedHTML made by DOMPurify's policy where the browser has Trusted Types. */
export type SafeHtmlValue = string | TrustedHTML;

export function createTrustedMarkdownRenderer(purify: DOMPurify): (markdown: string) => SafeHtmlValue {
  const marked = markdownParser();
  const purifier = configurePurifier(purify);
  return (markdown: string) => purifier.sanitize(marked.parse(markdown, { async: false }), { ...PURIFY_CONFIG, RETURN_TRUSTED_TYPE: true });
}
