import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { MarkdownFolder } from '../lib/core/markdown/sync';

/** The Markdown export's folder port over Node's file system (`engram export --markdown DIR`). */
export function nodeMarkdownFolder(root: string): MarkdownFolder {
  return {
    async list() {
      const out: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
        for (const entry of entries) {
          if (entry.name.startsWith('.')) continue; // .obsidian, .trash, .git
          const path = join(dir, entry.name);
          if (entry.isDirectory()) await walk(path);
          else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(relative(root, path).split(sep).join('/'));
        }
      };
      await walk(root);
      return out;
    },
    read: (path) => readFile(join(root, ...path.split('/')), 'utf8'),
    async write(path, text) {
      const target = join(root, ...path.split('/'));
      await mkdir(dirname(target), { recursive: true });
      // Written beside and renamed, so a crash never leaves half a note.
      const temporary = `${target}.engram-tmp`;
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, target);
    },
  };
}
