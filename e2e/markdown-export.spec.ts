import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { parseNote, resolveLink, type ReadNote } from '../tests/unit/markdown/obsidian-reader';
import { ImportPage } from './pages/import';
import { InboxPage } from './pages/inbox';

/**
 * Settings → Notes as Markdown, in the browser: the ZIP download and the folder path. Headless
 * Chromium cannot show a directory picker, so an init script makes `showDirectoryPicker` return a
 * folder of the origin's private file system (OPFS): a real FileSystemDirectoryHandle, written
 * through the same File System Access calls a picked folder gets.
 */

const TRANSCRIPT = [
  'User: The rain barrel overflows onto the patio every storm. Where should the overflow hose go?',
  'Assistant: Lead the overflow hose to the rain garden bed at least three metres from the foundation.',
  "User: I've decided to route the overflow hose to the rain garden bed by the fence.",
  'Assistant: Check the bed drains within a day so mosquitoes cannot breed in standing water.',
].join('\n');

async function keepTwo(page: Page): Promise<string[]> {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRANSCRIPT);
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });
  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  // Extraction reports done once every candidate is stored; the Inbox's live list can still be a
  // moment behind (it showed 1 item, then 4, then 5 in one CI run). Wait until its counts hold every
  // candidate the job reported, so the item read below is the one the key keeps.
  const reported = Number((await page.getByTestId('extract-done').textContent())?.match(/(\d+) new candidates/u)?.[1] ?? NaN);
  expect(reported).toBeGreaterThan(1);
  const listed = page.getByTestId('inbox-count-category');
  await expect
    .poll(async () => (await listed.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))).reduce((a, b) => a + b, 0))
    .toBe(reported);
  const kept: string[] = [];
  for (let i = 0; i < 2; i++) {
    kept.push((await inbox.selected().getByTestId('inbox-text').textContent())!.trim());
    const before = await inbox.items().count();
    await inbox.press('a');
    await expect(inbox.items()).toHaveCount(before - 1);
  }
  return kept;
}

function expectReadable(notes: ReadonlyMap<string, ReadNote>, kept: readonly string[]): void {
  const broken = [...notes.values()].flatMap((n) =>
    n.links.filter((l) => resolveLink(notes, l.target) === null).map((l) => `${n.path} -> ${l.target}`),
  );
  expect(broken).toEqual([]);
  const notePages = [...notes.values()].filter((n) => n.path !== 'Engram Index.md' && !n.path.startsWith('Conversations/'));
  expect(notePages).toHaveLength(kept.length);
  for (const text of kept) expect(notePages.some((n) => n.text.includes(text))).toBe(true);
  for (const n of notePages) {
    expect(typeof n.frontMatter?.category).toBe('string');
    expect(n.path.startsWith(`${String(n.frontMatter?.category).replace('/', '-')}/`)).toBe(true);
    expect(Number.isNaN(Date.parse(String(n.frontMatter?.kept)))).toBe(false);
  }
}

test('kept notes download as a ZIP of Markdown that an Obsidian-style reader parses', async ({ page }) => {
  test.setTimeout(120_000);
  const kept = await keepTwo(page);
  await page.goto('/settings');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('markdown-zip').click()]);
  expect(download.suggestedFilename()).toMatch(/^engram-notes-\d{4}-\d{2}-\d{2}\.zip$/u);
  const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
  const notes = new Map(Object.entries(files).map(([path, bytes]) => [path, parseNote(path, strFromU8(bytes))]));
  expectReadable(notes, kept);
  await expect(page.getByTestId('markdown-report')).toContainText(`${notes.size} written`);
});

test('kept notes go into a picked folder, and a second export leaves the file the person edited', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle('Obsidian', { create: true });
  });
  const kept = await keepTwo(page);
  await page.goto('/settings');
  await page.getByTestId('markdown-folder').click();
  await expect(page.getByTestId('markdown-report')).toContainText('Obsidian: ', { timeout: 30_000 });
  await expect(page.getByTestId('markdown-report')).toContainText('0 updated, 0 unchanged');

  const readFolder = () =>
    page.evaluate(async () => {
      const out: Record<string, string> = {};
      const walk = async (dir: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
        for await (const [name, handle] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
          if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${prefix}${name}/`);
          else out[`${prefix}${name}`] = await (await (handle as FileSystemFileHandle).getFile()).text();
        }
      };
      await walk(await (await navigator.storage.getDirectory()).getDirectoryHandle('Obsidian'), '');
      return out;
    });
  const first = await readFolder();
  const notes = new Map(Object.entries(first).map(([path, text]) => [path, parseNote(path, text)]));
  expectReadable(notes, kept);

  // The person edits one note in their Markdown tool, then exports again.
  const edited = [...notes.keys()].find((p) => p !== 'Engram Index.md' && !p.startsWith('Conversations/'))!;
  const editedText = `${first[edited]}\nMy own remark.\n`;
  await page.evaluate(
    async ([path, text]) => {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('Obsidian');
      const parts = path!.split('/');
      for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
      const writable = await (await dir.getFileHandle(parts.at(-1)!)).createWritable();
      await writable.write(text!);
      await writable.close();
    },
    [edited, editedText],
  );
  await page.getByTestId('markdown-folder').click();
  await expect(page.getByTestId('markdown-report')).toContainText(`0 written, 0 updated, ${notes.size - 1} unchanged`);
  await expect(page.getByTestId('markdown-report')).toContainText(edited);
  const second = await readFolder();
  expect(second[edited]).toBe(editedText);
  expect(Object.keys(second).sort()).toEqual(Object.keys(first).sort());
});
