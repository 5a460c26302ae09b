import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { nodeToText } from '../../../src/lib/bookmarklet/dom-text';
import { readPage, type PageWindow } from '../../../src/lib/bookmarklet/read-page';
import { parseCapturePayload } from '../../../src/lib/core/capture/payload';

/*
 * The bookmarklet's page readers on fixture DOMs: the saved ChatGPT and Claude pages the e2e suite
 * also serves (with the exact text each message must yield), a Gemini page, and pages whose markup
 * is unknown, to show each fallback in turn.
 */
interface Expected {
  title: string;
  path: string;
  conversationId: string;
  messages: { role: string; text: string }[];
}
const fixture = (name: string) => readFileSync(new URL(`../../../e2e/fixtures/chat-pages/${name}`, import.meta.url), 'utf8');
const expectedFor = (name: string) => JSON.parse(fixture(`${name}.expected.json`)) as Expected;
const NOW = new Date('2025-01-02T03:04:05.000Z');

function page(html: string, url: string): PageWindow & { window: JSDOM['window'] } {
  const { window } = new JSDOM(html, { url });
  return { window, document: window.document, location: window.location, getSelection: () => window.getSelection() };
}

function select(win: PageWindow, selector: string) {
  const range = win.document.createRange();
  range.selectNodeContents(win.document.querySelector(selector)!);
  win.getSelection()!.addRange(range);
}

const GEMINI = `<!doctype html><html><head><title>Gemini</title></head><body>
<bard-sidenav><div class="conversation selected"><div class="conversation-title">Tokyo trip budget</div></div></bard-sidenav>
<main><div class="conversation-container">
  <user-query><div class="query-content"><span class="cdk-visually-hidden">You said</span>
    <div class="query-text"><p class="query-text-line">How much is a week in Tokyo?</p><p class="query-text-line">Mid-range, please.</p></div></div></user-query>
  <model-response><div class="response-container"><message-content class="model-response-text"><div class="markdown markdown-main-panel">
    <p>About <strong>¥200,000</strong>.</p>
    <ol><li>Hotel: ¥120,000<ul><li>near a station</li></ul></li><li>Food: ¥50,000</li></ol>
    <code-block><div class="code-block"><div class="code-block-decoration header-formatted"><span>Python</span><div class="buttons"><button aria-label="Copy code">content_copy</button></div></div>
      <div class="formatted-code-block-internal-container"><pre><code class="code-container formatted" data-test-id="code-content">total = 120_000 + 50_000
print(total)</code></pre></div></div></code-block>
    <p>Math: <span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">x2</span></span></p>
    <table><thead><tr><th>Item</th><th>Cost</th></tr></thead><tbody><tr><td>Rail pass</td><td>¥30,000</td></tr></tbody></table>
  </div></message-content></div></model-response>
</div></main></body></html>`;

describe('reading a chat page from its markup', () => {
  it.each([
    ['chatgpt', 'https://chatgpt.com'],
    ['claude', 'https://claude.ai'],
  ])('%s: every message, in order, with its role and exact text (code fenced with its language)', (name, origin) => {
    const want = expectedFor(name);
    const reading = readPage(page(fixture(`${name}.html`), `${origin}${want.path}`), NOW);
    expect(reading.method).toBe('markup');
    expect(reading.payload).toMatchObject({ kind: 'conversation', source: name, title: want.title, conversationId: want.conversationId });
    const messages = reading.payload.kind === 'conversation' ? reading.payload.messages : [];
    expect(messages.map((m) => ({ role: m.role, text: m.text }))).toEqual(want.messages);
    expect(reading.notice).toBe(
      `Read ${want.messages.length} messages from this ${name === 'chatgpt' ? 'ChatGPT' : 'Claude'} conversation.`,
    );
    // What the bookmarklet sends passes the capture page's own validation.
    expect(parseCapturePayload(reading.payload).ok).toBe(true);
  });

  it('chatgpt: keeps the site message ids and leaves out screen-reader labels and buttons', () => {
    const want = expectedFor('chatgpt');
    const reading = readPage(page(fixture('chatgpt.html'), `https://chatgpt.com${want.path}`), NOW);
    const messages = reading.payload.kind === 'conversation' ? reading.payload.messages : [];
    expect(messages[0]?.externalId).toBe('aaa2-0000-4f6e-9c1d-5e8f0a1b2c3d');
    const all = messages.map((m) => m.text).join('\n');
    for (const noise of ['You said:', 'ChatGPT said:', 'Copy code', 'Edit message', 'Message ChatGPT', 'Japanese maple']) {
      expect(all).not.toContain(noise);
    }
  });

  it('gemini: user-query / model-response turns, lists, tables, KaTeX source and a code block', () => {
    const reading = readPage(page(GEMINI, 'https://gemini.google.com/app/9b8c7d6e5f'), NOW);
    expect(reading.payload).toMatchObject({ source: 'gemini', conversationId: '9b8c7d6e5f', title: 'Tokyo trip budget' });
    const messages = reading.payload.kind === 'conversation' ? reading.payload.messages : [];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0]?.text).toBe('How much is a week in Tokyo?\n\nMid-range, please.');
    expect(messages[1]?.text).toBe(
      [
        'About **¥200,000**.',
        '1. Hotel: ¥120,000\n  - near a station\n2. Food: ¥50,000',
        '```python\ntotal = 120_000 + 50_000\nprint(total)\n```',
        'Math: $x^2$',
        '| Item | Cost |\n| --- | --- |\n| Rail pass | ¥30,000 |',
      ].join('\n\n'),
    );
  });

  it('titles: the page title without the site suffix, else the sidebar link to the open conversation', () => {
    const claude = readPage(
      page(
        fixture('claude.html').replace(/<button data-testid="chat-menu-trigger"[\s\S]*?<\/button>/, ''),
        'https://claude.ai/chat/3f1c2b9e-7d4a-4e8b-9a61-2c5d8e7f6a10',
      ),
      NOW,
    );
    expect(claude.payload.title).toBe('Designing a rate limiter');
    const generic = fixture('chatgpt.html').replace('<title>Rate limiter design</title>', '<title>ChatGPT</title>');
    const chatgpt = readPage(page(generic, 'https://chatgpt.com/c/6790d2f1-3b7a-8001-a9c2-1f2e3d4c5b6a'), NOW);
    expect(chatgpt.payload.title).toBe('Rate limiter design');
  });
});

describe('fallbacks when the markup is not recognized', () => {
  // The site renamed its attributes: the turn selector finds nothing.
  const changed = fixture('chatgpt.html').replaceAll('data-message-author-role', 'data-author');
  const url = 'https://chatgpt.com/c/6790d2f1-3b7a-8001-a9c2-1f2e3d4c5b6a';

  it('1. the person’s selection, kept as a resource of that site, and says so', () => {
    const win = page(changed, url);
    select(win, '[data-testid="conversation-turn-2"] .markdown');
    const reading = readPage(win, NOW);
    expect(reading.method).toBe('selection');
    expect(reading.payload).toMatchObject({ kind: 'resource', source: 'chatgpt', method: 'selection', url });
    expect(reading.payload.kind === 'resource' && reading.payload.text).toBe(expectedFor('chatgpt').messages[1]!.text);
    expect(reading.notice).toBe('The ChatGPT page layout was not recognized, so roles are unknown: captured your selection.');
  });

  it('2. without a selection, the main text (the whole thread, not the first <article>)', () => {
    const reading = readPage(page(changed, url), NOW);
    expect(reading.method).toBe('main-text');
    const text = reading.payload.kind === 'resource' ? reading.payload.text : '';
    expect(text).toContain("I'm designing a rate limiter");
    expect(text).toContain('rollout plan');
    expect(text).toContain('```python\ndef allow(bucket, now):');
    expect(text).not.toContain('Japanese maple'); // the sidebar <nav> is left out
    expect(reading.notice).toMatch(/^The ChatGPT page layout was not recognized.*captured the page's main text/);
  });

  it('3. a page with no text at all is refused with a sentence', () => {
    expect(() => readPage(page('<html><body><nav>menu</nav></body></html>', url), NOW)).toThrow(/no text to capture/);
  });
});

describe('any other page: the selection or the article as a resource', () => {
  const html = fixture('other.html');
  const url = 'https://example.org/notes?x=1';

  it('takes the selection first', () => {
    const win = page(html, url);
    select(win, '#lead');
    const reading = readPage(win, NOW);
    expect(reading.payload).toEqual({
      type: 'engram-capture',
      version: 1,
      kind: 'resource',
      source: 'web',
      method: 'selection',
      url,
      title: 'Notes on rate limiting',
      capturedAt: '2025-01-02T03:04:05.000Z',
      text: 'A token bucket refills at a steady rate and lets short bursts through.',
    });
    expect(reading.notice).toBe('Captured your selection.');
  });

  it('else the article text, else the main text', () => {
    const article = readPage(page(html, url), NOW);
    expect(article.method).toBe('article');
    expect(article.payload.kind === 'resource' && article.payload.text).toBe(
      '# Notes on rate limiting\n\nA token bucket refills at a steady rate and lets short bursts through.\n\nA sliding window log is exact but stores one timestamp per request.',
    );
    const plain = readPage(page('<html><head><title>T</title></head><body><main><p>Only main.</p></main></body></html>', url), NOW);
    expect(plain).toMatchObject({ method: 'main-text', payload: { text: 'Only main.' } });
    // A look-alike of a chat host is just another page.
    expect(readPage(page(html, 'https://chatgpt.com.evil.example/'), NOW).payload.source).toBe('web');
  });
});

describe('Markdown from DOM', () => {
  const text = (html: string) => nodeToText(new JSDOM(`<body><div id="x">${html}</div></body>`).window.document.getElementById('x')!);

  it('fences code with a longer fence when the code contains backticks', () => {
    expect(text('<pre><code class="language-md">```js\nx\n```\n</code></pre>')).toBe('````md\n```js\nx\n```\n````');
  });

  it('keeps whitespace of pre-wrapped text and collapses it elsewhere', () => {
    expect(text('<div class="whitespace-pre-wrap">a\n  b</div><p>c\n   d</p>')).toBe('a\n  b\n\nc d');
  });

  it('writes links as Markdown only for http(s) targets, and blockquotes and headings', () => {
    expect(
      text(
        '<p><a href="https://x.org">site</a> <a href="javascript:alert(1)">bad</a></p><blockquote><p>q1</p><p>q2</p></blockquote><h2>H</h2>',
      ),
    ).toBe('[site](https://x.org) bad\n\n> q1\n>\n> q2\n\n## H');
  });

  it('leaves out hidden, aria-hidden, inputs and media', () => {
    expect(
      text('<p>seen</p><p hidden>no</p><span aria-hidden="true">no</span><textarea>no</textarea><img alt="no"><svg><text>no</text></svg>'),
    ).toBe('seen');
  });
});
