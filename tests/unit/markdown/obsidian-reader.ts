/**
 * An Obsidian-style reader for the Markdown export's round-trip test: every `.md` file's YAML front
 * matter (remark-frontmatter finds the block, js-yaml parses it as Obsidian's properties would be
 * read), every wiki link (remark-wiki-link, Obsidian's `[[target|alias]]` syntax), and link
 * resolution the way Obsidian does it: a target is a vault-relative path without ".md", or a bare
 * note name when exactly one file has it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { load } from 'js-yaml';
import remarkFrontmatter from 'remark-frontmatter';
import remarkParse from 'remark-parse';
import wikiLink from 'remark-wiki-link';
import { unified } from 'unified';

export interface ReadNote {
  path: string;
  frontMatter: Record<string, unknown> | null;
  links: { target: string; alias: string | null }[];
  text: string;
}

interface MdNode {
  type: string;
  value?: string;
  data?: { alias?: string };
  children?: MdNode[];
}

const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(wikiLink, { aliasDivider: '|' });

function walk(node: MdNode, visit: (n: MdNode) => void): void {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

export function parseNote(path: string, text: string): ReadNote {
  const tree = processor.runSync(processor.parse(text)) as MdNode;
  let frontMatter: Record<string, unknown> | null = null;
  const links: ReadNote['links'] = [];
  walk(tree, (node) => {
    if (node.type === 'yaml' && frontMatter === null) frontMatter = load(node.value ?? '') as Record<string, unknown>;
    if (node.type === 'wikiLink')
      links.push({ target: node.value ?? '', alias: node.data?.alias && node.data.alias !== node.value ? node.data.alias : null });
  });
  // Links inside front matter properties ("[[...]]" strings), as Obsidian reads them.
  const inProperties = (value: unknown): void => {
    if (typeof value === 'string')
      for (const m of value.matchAll(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/gu)) links.push({ target: m[1]!, alias: m[2] ?? null });
    else if (Array.isArray(value)) value.forEach(inProperties);
    else if (value && typeof value === 'object') Object.values(value).forEach(inProperties);
  };
  inProperties(frontMatter);
  return { path, frontMatter, links, text };
}

export async function readVault(root: string): Promise<Map<string, ReadNote>> {
  const notes = new Map<string, ReadNote>();
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.name.endsWith('.md')) {
        const path = relative(root, full).split(sep).join('/');
        notes.set(path, parseNote(path, await readFile(full, 'utf8')));
      }
    }
  };
  await visit(root);
  return notes;
}

/** The file a link resolves to, as Obsidian would: a vault-relative path, else a unique note name. */
export function resolveLink(notes: ReadonlyMap<string, ReadNote>, target: string): string | null {
  const direct = `${target}.md`;
  if (notes.has(direct)) return direct;
  const byName = [...notes.keys()].filter((p) => p.split('/').pop() === `${target}.md`);
  return byName.length === 1 ? byName[0]! : null;
}
