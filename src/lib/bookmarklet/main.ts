/**
 * The bookmarklet's entry point. vite.config.ts bundles this file (and what it imports) into one
 * minified, self-contained script at build time; the capture page replaces APP_ORIGIN_TOKEN with
 * its own origin (as a JSON string literal) and offers the result as a `javascript:` link. It
 * loads no script and makes no network request: it reads the page, opens the capture page and
 * talks to it with postMessage (or falls back to the clipboard).
 */
import { handOff } from './handoff';
import { createNotice } from './notice';
import { readPage } from './read-page';

declare const __ENGRAM_APP_ORIGIN__: string;

async function run(win: Window, appOrigin: string): Promise<void> {
  const notice = createNotice(win.document);
  try {
    const reading = readPage(win, new Date());
    notice.show('sending', reading.notice);
    await handOff(win, reading.payload, appOrigin, notice);
  } catch (thrown) {
    notice.show('error', thrown instanceof Error ? thrown.message : 'The capture failed.');
  }
}

void run(window, __ENGRAM_APP_ORIGIN__);
