/**
 * The pages of a Markdown export of kept notes: one file per note in a folder per category, one
 * page per source conversation and per entity (links go both ways), and an index. Pages are
 * planned first (a stable key and a preferred path each) and rendered once every page's final path
 * is known, so links always name the file that is really there (sync.ts may keep an older path).
 */
import { stringify } from 'yaml';
import type { NoteRecord, Source } from '../records';
import { categoryFolder, noteTitle, safeName, wikiLink } from './names';

export interface MarkdownConversation {
  id: string;
  title: string;
  source: Source;
  createdAt: number | null;
}

export interface MarkdownInput {
  /** The notes to write (the app passes kept notes, decisions among them). */
  notes: readonly NoteRecord[];
  conversations: ReadonlyMap<string, MarkdownConversation>;
  /** Entities a note mentions (names), when the vault knows them; each gets a page. */
  entities?: ReadonlyMap<string, readonly string[]>;
}

export const INDEX_PATH = 'Engram Index.md';
export const HASH_KEY = 'engram_hash';
export const ID_KEY = 'engram_id';
const RELATED_LIMIT = 12;

export interface PlannedPage {
  /**
   * Stable identity across runs, written as the page's `engram_id`: the note's id, or
   * `conversation:<id>`, `entity:<name>`, `index`.
   */
  key: string;
  preferredPath: string;
  /** Front matter (without the hash) and body, given every page's final path. */
  render(pathOf: (key: string) => string | undefined): { frontMatter: Record<string, unknown>; body: string };
}

const isoDate = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString().slice(0, 10);
/**
 * A Date, which the YAML writer emits as a plain (unquoted) ISO timestamp: Obsidian shows it as a
 * date property and YAML readers parse it as a date, not a string.
 */
const when = (ms: number | null | undefined): Date | null => (ms === null || ms === undefined ? null : new Date(ms));
const day = (ms: number | null | undefined): Date | null => (ms === null || ms === undefined ? null : new Date(`${isoDate(ms)}T00:00:00Z`));
const tagOf = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9/_-]+/gu, '-')
    .replace(/^-+|-+$/gu, '');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function linkTo(pathOf: (key: string) => string | undefined, key: string, label: string): string | null {
  const path = pathOf(key);
  return path === undefined ? null : wikiLink(path, label);
}

function notePage(note: NoteRecord, input: MarkdownInput, byConversation: ReadonlyMap<string, NoteRecord[]>): PlannedPage {
  const title = noteTitle(note.text, note.title);
  const conversation = note.conversationId ? input.conversations.get(note.conversationId) : undefined;
  const entities = input.entities?.get(note.id) ?? [];
  return {
    key: note.id,
    preferredPath: `${categoryFolder(note.category)}/${title}.md`,
    render(pathOf) {
      const conversationLink = conversation
        ? linkTo(pathOf, `conversation:${conversation.id}`, conversation.title || 'Untitled conversation')
        : null;
      const frontMatter: Record<string, unknown> = {
        [ID_KEY]: note.id,
        category: note.category,
        status: note.status,
        created: when(note.createdAt),
        updated: when(note.updatedAt),
        kept: when(note.keptAt),
        confidence: note.confidence,
        sources: conversation
          ? [
              {
                conversation: conversationLink,
                source: conversation.source,
                date: day(conversation.createdAt),
                messages: [...note.sourceMessageIds],
              },
            ]
          : note.sourceMessageIds.length > 0
            ? [{ messages: [...note.sourceMessageIds] }]
            : [],
        tags: [
          `engram/${tagOf(note.category)}`,
          ...(conversation ? [`source/${tagOf(conversation.source)}`] : []),
          ...entities.map((e) => `entity/${tagOf(e)}`),
        ],
      };
      const lines = [`# ${title}`, '', note.text.trim(), ''];
      if (conversationLink) {
        lines.push(
          '## Source',
          '',
          `- ${conversationLink} · ${conversation!.source}${conversation!.createdAt ? ` · ${isoDate(conversation!.createdAt)}` : ''}`,
          '',
        );
      }
      const lineage = [
        note.supersedes ? linkTo(pathOf, note.supersedes, 'the note it replaces') : null,
        note.supersededBy ? linkTo(pathOf, note.supersededBy, 'the note that replaces it') : null,
      ].filter((l): l is string => l !== null);
      const siblings = (note.conversationId ? (byConversation.get(note.conversationId) ?? []) : [])
        .filter((other) => other.id !== note.id)
        .slice(0, RELATED_LIMIT)
        .map((other) => linkTo(pathOf, other.id, noteTitle(other.text, other.title)))
        .filter((l): l is string => l !== null);
      if (lineage.length + siblings.length > 0) {
        lines.push('## Related notes', '');
        for (const l of lineage) lines.push(`- ${l}`);
        for (const l of siblings) lines.push(`- ${l} (same conversation)`);
        lines.push('');
      }
      const entityLinks = entities.map((e) => linkTo(pathOf, `entity:${e}`, e)).filter((l): l is string => l !== null);
      if (entityLinks.length > 0) lines.push('## Entities', '', ...entityLinks.map((l) => `- ${l}`), '');
      return { frontMatter, body: lines.join('\n') };
    },
  };
}

function conversationPage(conversation: MarkdownConversation, notes: readonly NoteRecord[]): PlannedPage {
  const title = conversation.title || 'Untitled conversation';
  return {
    key: `conversation:${conversation.id}`,
    preferredPath: `Conversations/${safeName(title, 'Untitled conversation')}.md`,
    render(pathOf) {
      const frontMatter = {
        [ID_KEY]: `conversation:${conversation.id}`,
        source: conversation.source,
        created: when(conversation.createdAt),
        tags: ['engram/conversation', `source/${tagOf(conversation.source)}`],
      };
      const links = notes.map((n) => linkTo(pathOf, n.id, noteTitle(n.text, n.title))).filter((l): l is string => l !== null);
      const body = [
        `# ${title}`,
        '',
        `A ${conversation.source} conversation${conversation.createdAt ? ` from ${isoDate(conversation.createdAt)}` : ''}. Notes kept from it:`,
        '',
        ...links.map((l) => `- ${l}`),
        '',
      ].join('\n');
      return { frontMatter, body };
    },
  };
}

function entityPage(name: string, noteIds: readonly string[], notes: ReadonlyMap<string, NoteRecord>): PlannedPage {
  return {
    key: `entity:${name}`,
    preferredPath: `Entities/${safeName(name, 'Unnamed entity')}.md`,
    render(pathOf) {
      const links = noteIds
        .map((id) => notes.get(id))
        .filter((n): n is NoteRecord => n !== undefined)
        .map((n) => linkTo(pathOf, n.id, noteTitle(n.text, n.title)))
        .filter((l): l is string => l !== null);
      return {
        frontMatter: { [ID_KEY]: `entity:${name}`, tags: ['engram/entity'] },
        body: [`# ${name}`, '', 'Notes that mention it:', '', ...links.map((l) => `- ${l}`), ''].join('\n'),
      };
    },
  };
}

function indexPage(notes: readonly NoteRecord[], conversations: readonly MarkdownConversation[]): PlannedPage {
  return {
    key: 'index',
    preferredPath: INDEX_PATH,
    render(pathOf) {
      const byCategory = new Map<string, NoteRecord[]>();
      for (const note of notes) byCategory.set(note.category, [...(byCategory.get(note.category) ?? []), note]);
      const lines = [
        '# Engram Vault',
        '',
        `${plural(notes.length, 'kept note')} from ${plural(conversations.length, 'conversation')}. Each note links to where it came from.`,
        '',
      ];
      for (const [category, list] of [...byCategory.entries()].sort(([a], [b]) => a.localeCompare(b))) {
        lines.push(`## ${category} (${list.length})`, '');
        for (const note of list) {
          const link = linkTo(pathOf, note.id, noteTitle(note.text, note.title));
          if (link) lines.push(`- ${link}`);
        }
        lines.push('');
      }
      if (conversations.length > 0) {
        lines.push('## Conversations', '');
        for (const c of conversations) {
          const link = linkTo(pathOf, `conversation:${c.id}`, c.title || 'Untitled conversation');
          if (link) lines.push(`- ${link}`);
        }
        lines.push('');
      }
      return { frontMatter: { [ID_KEY]: 'index', tags: ['engram/index'] }, body: lines.join('\n') };
    },
  };
}

/** Every page of the export, in a deterministic order (notes oldest first, then by id). */
export function planPages(input: MarkdownInput): PlannedPage[] {
  const notes = [...input.notes].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const byId = new Map(notes.map((n) => [n.id, n]));
  const byConversation = new Map<string, NoteRecord[]>();
  for (const note of notes)
    if (note.conversationId) byConversation.set(note.conversationId, [...(byConversation.get(note.conversationId) ?? []), note]);
  const conversations = [...byConversation.keys()]
    .map((id) => input.conversations.get(id))
    .filter((c): c is MarkdownConversation => c !== undefined)
    .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0) || a.id.localeCompare(b.id));
  const mentions = new Map<string, string[]>();
  for (const note of notes)
    for (const name of input.entities?.get(note.id) ?? []) mentions.set(name, [...(mentions.get(name) ?? []), note.id]);
  return [
    indexPage(notes, conversations),
    ...notes.map((n) => notePage(n, input, byConversation)),
    ...conversations.map((c) => conversationPage(c, byConversation.get(c.id) ?? [])),
    ...[...mentions.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, ids]) => entityPage(name, ids, byId)),
  ];
}

/** Front matter block and body as one Markdown file (the hash placeholder is filled by sync.ts). */
export function toMarkdown(frontMatter: Record<string, unknown>, body: string, hash: string): string {
  const yaml = stringify({ ...frontMatter, [HASH_KEY]: hash }, { lineWidth: 0 });
  return `---\n${yaml}---\n\n${body}`;
}
