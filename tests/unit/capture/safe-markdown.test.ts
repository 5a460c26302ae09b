import { readFileSync } from 'node:fs';
import DOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { ALLOWED_TAGS, createMarkdownRenderer } from '../../../src/lib/core/capture/safe-markdown';

/** The renderer behind SafeHtml.svelte, with DOMPurify on a jsdom window (the browser has its own). */
const window = new JSDOM('').window;
const render = createMarkdownRenderer(DOMPurify(window as unknown as Parameters<typeof DOMPurify>[0]));

interface Corpus {
  entries: { id: string; markdown: string }[];
}
const corpus = (JSON.parse(readFileSync(new URL('../../fixtures/xss/corpus.json', import.meta.url), 'utf8')) as Corpus).entries;

const ALLOWED = new Set(ALLOWED_TAGS.map((t) => t.toUpperCase()));
const ATTRIBUTES = new Set(['href', 'title', 'class', 'start', 'align', 'target', 'rel']);

/** Everything that could run code or fetch something, checked on the parsed output. */
function dangers(html: string): string[] {
  const doc = new JSDOM(`<body>${html}</body>`).window.document;
  const found: string[] = [];
  for (const el of Array.from(doc.body.querySelectorAll('*'))) {
    if (!ALLOWED.has(el.tagName)) found.push(`tag ${el.tagName}`);
    for (const attr of Array.from(el.attributes)) {
      if (!ATTRIBUTES.has(attr.name)) found.push(`attribute ${attr.name} on ${el.tagName}`);
      if (attr.name === 'href' && !/^(https?:|mailto:)/i.test(attr.value)) found.push(`href ${attr.value}`);
    }
    if (el.tagName === 'A' && el.getAttribute('href') && el.getAttribute('rel') !== 'noopener noreferrer') found.push('link without rel');
    if (el.tagName === 'A' && el.hasAttribute('class')) found.push('class on a link');
  }
  return found;
}

describe('SafeHtml renderer on the XSS corpus', () => {
  it.each(corpus.map((entry) => [entry.id, entry.markdown]))('%s renders with nothing that can run or fetch', (_id, markdown) => {
    const html = render(markdown);
    expect(dangers(html)).toEqual([]);
    // Text may show tags and attributes (escaped); no real element of these kinds may exist.
    expect(html).not.toMatch(/<(script|img|svg|math|iframe|object|embed|style|link|meta|base|form|input|video|audio|template)\b/i);
  });

  it('shows raw HTML as text rather than dropping it', () => {
    const html = render('Hello <b onmouseover="x()">there</b>');
    const text = new JSDOM(`<body>${html}</body>`).window.document.body.textContent;
    expect(text).toContain('<b onmouseover="x()">there</b>');
  });

  it('turns an image into a link to it (nothing is fetched) or into text', () => {
    expect(render('![chart](https://example.org/c.png)')).toBe(
      '<p><a href="https://example.org/c.png" target="_blank" rel="noopener noreferrer">image: chart</a></p>\n',
    );
    expect(render('![x](data:image/png;base64,AAAA)')).toBe('<p>[image: x]</p>\n');
  });
});

describe('SafeHtml renderer on ordinary Markdown', () => {
  it('keeps code blocks with their language, lists, emphasis and tables', () => {
    const html = render('# Plan\n\n- **one**\n- *two*\n\n```python\nif a < b:\n    pass\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |');
    expect(html).toContain('<h1>Plan</h1>');
    expect(html).toContain('<strong>one</strong>');
    expect(html).toContain('<pre><code class="language-python">if a &lt; b:\n    pass\n</code></pre>');
    expect(html).toContain('<td>1</td>');
  });

  it('gives every link rel="noopener noreferrer" and a new tab; code keeps only its language class', () => {
    const html = render('[site](https://example.org) and <https://example.com>');
    expect(html).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">site</a>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">https://example.com</a>');
    expect(render('```card evil\nx\n```')).toBe('<pre><code class="language-card">x\n</code></pre>\n');
  });

  it('keeps line breaks of chat text', () => {
    expect(render('line one\nline two')).toBe('<p>line one<br>line two</p>\n');
  });
});
