/**
 * Writes the planned pages into a folder, again and again, without duplicating or clobbering:
 * - A page is recognised by the `engram_id` in its front matter, wherever it now lives (a person
 *   may move or rename it): it is updated in place, never written a second time elsewhere.
 * - Every page records the SHA-256 of what was written (`engram_hash`, computed with that field
 *   blank). A page whose text no longer matches its hash was edited by the person: it is left as it
 *   is and reported, never overwritten.
 * - A new page never takes the path of a file that is already there (a person's own note): it gets
 *   " 2", " 3", ... instead.
 * - Pages of notes that are no longer exported (discarded, superseded) are reported as stale and left.
 * The folder comes in as a port (Node's fs in the CLI, the File System Access API in the browser, an
 * in-memory map for a ZIP).
 */
import { parse } from 'yaml';
import { uniquePath } from './names';
import { HASH_KEY, ID_KEY, planPages, toMarkdown, type MarkdownInput } from './pages';

export interface MarkdownFolder {
  /** Vault-relative paths ('/' separated) of the Markdown files already in the folder. */
  list(): Promise<string[]>;
  read(path: string): Promise<string>;
  write(path: string, text: string): Promise<void>;
}

export interface MarkdownExportReport {
  /** New files. */
  written: string[];
  /** Files of an earlier export brought up to date. */
  updated: string[];
  unchanged: string[];
  /** Files of an earlier export that the person edited: kept as they are, not overwritten. */
  edited: string[];
  /** Files of an earlier export whose note is no longer exported: left in place. */
  stale: string[];
}

interface Existing {
  path: string;
  text: string;
  id: string | null;
  edited: boolean;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/u;
const HASH_LINE = new RegExp(`^${HASH_KEY}:.*$`, 'mu');

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const blankHash = (text: string) => text.replace(HASH_LINE, `${HASH_KEY}: ""`);

/** The export's own front matter of a file, or nulls when it has none (or it does not parse). */
async function inspect(path: string, text: string): Promise<Existing> {
  const match = FRONT_MATTER.exec(text);
  let data: unknown;
  try {
    data = match ? parse(match[1]!) : null;
  } catch {
    data = null; // a person's file with broken front matter is simply not ours
  }
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const id = typeof record[ID_KEY] === 'string' ? record[ID_KEY] : null;
  const recorded = typeof record[HASH_KEY] === 'string' ? record[HASH_KEY] : null;
  const edited = id !== null && (recorded === null || (await sha256Hex(blankHash(text))) !== recorded);
  return { path, text, id, edited };
}

export async function exportMarkdown(input: MarkdownInput, folder: MarkdownFolder): Promise<MarkdownExportReport> {
  const existing: Existing[] = [];
  for (const path of (await folder.list()).sort()) existing.push(await inspect(path, await folder.read(path)));
  const byId = new Map<string, Existing>();
  for (const file of existing) if (file.id !== null && !byId.has(file.id)) byId.set(file.id, file);

  const pages = planPages(input);
  const taken = new Set(existing.map((f) => f.path.toLowerCase()));
  const paths = new Map<string, string>();
  for (const page of pages) {
    const old = byId.get(page.key);
    if (old) {
      paths.set(page.key, old.path);
    } else {
      const path = uniquePath(page.preferredPath, taken);
      taken.add(path.toLowerCase());
      paths.set(page.key, path);
    }
  }

  const report: MarkdownExportReport = { written: [], updated: [], unchanged: [], edited: [], stale: [] };
  for (const page of pages) {
    const path = paths.get(page.key)!;
    const { frontMatter, body } = page.render((key) => paths.get(key));
    const draft = toMarkdown(frontMatter, body, '');
    const text = toMarkdown(frontMatter, body, await sha256Hex(draft));
    const old = byId.get(page.key);
    if (old?.edited) report.edited.push(path);
    else if (old && old.text === text) report.unchanged.push(path);
    else {
      await folder.write(path, text);
      (old ? report.updated : report.written).push(path);
    }
  }
  const planned = new Set(pages.map((p) => p.key));
  for (const file of byId.values()) if (!planned.has(file.id!)) report.stale.push(file.path);
  return report;
}
