/**
 * `engram export --markdown DIR --vault FILE` round-trips through an Obsidian-style reader (front
 * matter and wiki links parse and resolve), and re-runs neither duplicate nor clobber: edited files
 * are reported and left, moved files are updated where they now live, a person's own file keeps
 * its name.
 */
import { mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withVaultFile } from '../../../src/cli/commands/vault-file';
import { exportMarkdown, type MarkdownFolder } from '../../../src/lib/core/markdown/sync';
import type { MarkdownConversation } from '../../../src/lib/core/markdown/pages';
import type { NoteRecord } from '../../../src/lib/core/records';
import { runCli } from '../../factories/cli';
import { conversation, note } from '../../factories/records';
import { readVault, resolveLink, type ReadNote } from './obsidian-reader';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 2, 5, 14, 30);

const NOTES: NoteRecord[] = [
  note({
    id: 'n-decision',
    text: 'Route the rain barrel overflow to the rain garden bed.',
    category: 'Decisions',
    status: 'kept',
    keptAt: T0 + DAY,
    createdAt: T0,
    updatedAt: T0 + DAY,
    conversationId: 'c-rain',
    sourceMessageIds: ['m1', 'm3'],
  }),
  note({
    id: 'n-fact',
    text: 'Dawn watering loses the least water to evaporation. It also keeps leaves dry by noon.',
    category: 'Facts',
    status: 'kept',
    keptAt: T0 + 2 * DAY,
    createdAt: T0 + 1,
    conversationId: 'c-rain',
  }),
  note({
    id: 'n-idea',
    text: 'Maybe a second barrel under the shed roof.',
    category: 'Provisional/Exploratory',
    status: 'kept',
    keptAt: T0,
    createdAt: T0 + 2,
    conversationId: 'c-shed',
  }),
  note({
    id: 'n-open',
    text: 'Is the clay soil draining fast enough?',
    category: 'Open Questions',
    status: 'provisional',
    conversationId: 'c-shed',
  }),
  note({ id: 'n-gone', text: 'Water at noon.', category: 'Decisions', status: 'discarded', conversationId: 'c-rain' }),
];

const CONVERSATIONS = [
  conversation({ id: 'c-rain', externalId: 'e-rain', title: 'Rain barrel: overflow?', createdAt: T0 - DAY }),
  conversation({ id: 'c-shed', externalId: 'e-shed', title: 'Shed roof gutters', source: 'claude', createdAt: T0 - 2 * DAY }),
];

async function writeVault(path: string, notes: readonly NoteRecord[]): Promise<void> {
  await withVaultFile(path, null, async (vault) => {
    await vault.db.conversations.bulkPut(CONVERSATIONS);
    for (const n of notes) await vault.notes.save(n, { actor: 'user', action: 'keep', why: 'test', at: n.updatedAt });
  });
}

interface CliReport {
  dir: string;
  written: string[];
  updated: string[];
  unchanged: string[];
  edited: string[];
  stale: string[];
}

async function exportTo(dir: string, vault: string): Promise<CliReport> {
  const { code, out, err } = await runCli(['export', '--markdown', dir, '--vault', vault, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as CliReport;
}

/** Every wiki link resolves (files the person edited are theirs: the export does not touch them). */
function expectLinksResolve(notes: ReadonlyMap<string, ReadNote>, theirs: readonly string[] = []): void {
  const broken = [...notes.values()]
    .filter((n) => !theirs.includes(n.path))
    .flatMap((n) => n.links.filter((l) => resolveLink(notes, l.target) === null).map((l) => `${n.path} -> ${l.target}`));
  expect(broken).toEqual([]);
}

describe('engram export --markdown', () => {
  let root: string;
  let vaultFile: string;
  let dir: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'engram-md-'));
    vaultFile = join(root, 'vault.engram');
    dir = join(root, 'Obsidian Vault', 'Engram');
    await writeVault(vaultFile, NOTES);
  });

  it('writes kept notes, a folder per category, conversation pages and an index that an Obsidian-style reader parses', async () => {
    const report = await exportTo(dir, vaultFile);
    expect(report.written.sort()).toEqual([
      'Conversations/Rain barrel overflow.md',
      'Conversations/Shed roof gutters.md',
      'Decisions/Route the rain barrel overflow to the rain garden bed.md',
      'Engram Index.md',
      'Facts/Dawn watering loses the least water to evaporation.md',
      'Provisional-Exploratory/Maybe a second barrel under the shed roof.md',
    ]);
    const notes = await readVault(dir);
    expect(notes.size).toBe(6);
    expectLinksResolve(notes);

    const decision = notes.get('Decisions/Route the rain barrel overflow to the rain garden bed.md')!;
    const fm = decision.frontMatter!;
    expect(fm.engram_id).toBe('n-decision');
    expect(fm.category).toBe('Decisions');
    // ISO timestamps, unquoted (Obsidian shows them as date properties; YAML 1.2 readers keep the text).
    const instant = (v: unknown) => new Date(v instanceof Date ? v : String(v)).getTime();
    expect(instant(fm.created)).toBe(T0);
    expect(instant(fm.kept)).toBe(T0 + DAY);
    expect(decision.text).toMatch(/^created: 2024-03-05T14:30:00\.000Z$/mu);
    expect(fm.tags).toEqual(['engram/decisions', 'source/chatgpt']);
    for (const tag of fm.tags as string[]) expect(tag).toMatch(/^[a-z0-9_/-]*[a-z_/-][a-z0-9_/-]*$/u); // Obsidian: not only digits, no spaces
    const [source] = fm.sources as Record<string, unknown>[];
    expect(source).toMatchObject({
      conversation: '[[Conversations/Rain barrel overflow|Rain barrel: overflow?]]',
      source: 'chatgpt',
      messages: ['m1', 'm3'],
    });
    expect(instant(source!.date)).toBe(Date.UTC(2024, 2, 4));
    expect(decision.text).toContain('Route the rain barrel overflow to the rain garden bed.');

    // Links go both ways: note -> conversation -> note, note -> sibling, index -> every note.
    const targets = (n: ReadNote) => n.links.map((l) => resolveLink(notes, l.target));
    expect(targets(decision)).toContain('Conversations/Rain barrel overflow.md');
    expect(targets(decision)).toContain('Facts/Dawn watering loses the least water to evaporation.md');
    expect(targets(notes.get('Conversations/Rain barrel overflow.md')!)).toEqual(
      expect.arrayContaining([
        'Decisions/Route the rain barrel overflow to the rain garden bed.md',
        'Facts/Dawn watering loses the least water to evaporation.md',
      ]),
    );
    expect(new Set(targets(notes.get('Engram Index.md')!))).toEqual(new Set([...notes.keys()].filter((p) => p !== 'Engram Index.md')));
    // Not kept: not exported.
    expect([...notes.values()].some((n) => n.text.includes('clay soil') || n.text.includes('Water at noon'))).toBe(false);
  });

  it('a second run changes nothing', async () => {
    const report = await exportTo(dir, vaultFile);
    expect(report).toMatchObject({ written: [], updated: [], edited: [], stale: [] });
    expect(report.unchanged).toHaveLength(6);
  });

  it('leaves and reports a file the person edited, follows a file the person moved, and never takes the name of their own file', async () => {
    const editedPath = join(dir, 'Facts/Dawn watering loses the least water to evaporation.md');
    const edited = `${await readFile(editedPath, 'utf8')}\nMy own line: the hose timer is set to 05:30.\n`;
    await writeFile(editedPath, edited);
    await mkdir(join(dir, 'Garden'), { recursive: true });
    await rename(join(dir, 'Decisions/Route the rain barrel overflow to the rain garden bed.md'), join(dir, 'Garden/Overflow decision.md'));
    // The person's own note, with the title a new kept note will have.
    await writeFile(join(dir, 'Decisions/Mulch the rain garden in spring.md'), '# Mine\n\nMy own words.\n');

    await writeVault(vaultFile, [
      ...NOTES,
      note({
        id: 'n-new',
        text: 'Mulch the rain garden in spring.',
        category: 'Decisions',
        status: 'kept',
        keptAt: T0 + 3 * DAY,
        createdAt: T0 + 3,
        conversationId: 'c-rain',
      }),
    ]);
    const report = await exportTo(dir, vaultFile);
    expect(report.edited).toEqual(['Facts/Dawn watering loses the least water to evaporation.md']);
    expect(report.written).toEqual(['Decisions/Mulch the rain garden in spring 2.md']);
    // The moved decision gets its new sibling link where it now lives; no second copy appears.
    expect(report.updated.sort()).toEqual(['Conversations/Rain barrel overflow.md', 'Engram Index.md', 'Garden/Overflow decision.md']);
    expect(await readFile(editedPath, 'utf8')).toBe(edited);
    expect(await readFile(join(dir, 'Decisions/Mulch the rain garden in spring.md'), 'utf8')).toBe('# Mine\n\nMy own words.\n');

    const notes = await readVault(dir);
    expect([...notes.keys()].filter((p) => p.includes('Route the rain barrel'))).toEqual([]);
    expect(notes.get('Garden/Overflow decision.md')!.frontMatter!.engram_id).toBe('n-decision');
    // The edited file still links to the decision's old place (Obsidian would have renamed the link
    // when the person moved the file in it; here the file system moved it).
    expectLinksResolve(notes, report.edited);
    expect(notes.get('Garden/Overflow decision.md')!.links.map((l) => resolveLink(notes, l.target))).toContain(
      'Decisions/Mulch the rain garden in spring 2.md',
    );
  });

  it('reports, and leaves, the page of a note that is no longer kept', async () => {
    await writeVault(
      vaultFile,
      NOTES.map((n) => (n.id === 'n-idea' ? { ...n, status: 'discarded' as const } : n)),
    );
    const report = await exportTo(dir, vaultFile);
    // Its conversation had no other kept note, so its page is stale too.
    expect(report.stale.sort()).toEqual([
      'Conversations/Shed roof gutters.md',
      'Provisional-Exploratory/Maybe a second barrel under the shed roof.md',
    ]);
    expect((await readVault(dir)).has('Provisional-Exploratory/Maybe a second barrel under the shed roof.md')).toBe(true);
  });

  it('says what is wrong when the vault file is missing', async () => {
    const { code, err } = await runCli(['export', '--markdown', dir, '--vault', join(root, 'missing.engram')]);
    expect(code).toBe(2);
    expect(err).toMatch(/missing\.engram/u);
  });
});

describe('exportMarkdown with entities', () => {
  it('gives each entity a page linked both ways', async () => {
    const files = new Map<string, string>();
    const folder: MarkdownFolder = {
      list: async () => [...files.keys()],
      read: async (path) => files.get(path)!,
      write: async (path, text) => void files.set(path, text),
    };
    const conversations = new Map<string, MarkdownConversation>([
      ['c-rain', { id: 'c-rain', title: 'Rain barrel', source: 'chatgpt', createdAt: T0 }],
    ]);
    const kept = NOTES.filter((n) => n.status === 'kept');
    const report = await exportMarkdown(
      { notes: kept, conversations, entities: new Map([['n-decision', ['Rain garden', 'Barrel #2']]]) },
      folder,
    );
    expect(report.written).toEqual(expect.arrayContaining(['Entities/Rain garden.md', 'Entities/Barrel 2.md']));
    const { parseNote } = await import('./obsidian-reader');
    const notes = new Map([...files.entries()].map(([path, text]) => [path, parseNote(path, text)]));
    expectLinksResolve(notes);
    const decision = [...notes.values()].find((n) => n.frontMatter?.engram_id === 'n-decision')!;
    expect(decision.links.map((l) => resolveLink(notes, l.target))).toEqual(
      expect.arrayContaining(['Entities/Rain garden.md', 'Entities/Barrel 2.md']),
    );
    expect(notes.get('Entities/Barrel 2.md')!.links.map((l) => resolveLink(notes, l.target))).toEqual([decision.path]);
    expect(decision.frontMatter!.tags).toEqual(expect.arrayContaining(['entity/rain-garden', 'entity/barrel-2']));
  });
});
