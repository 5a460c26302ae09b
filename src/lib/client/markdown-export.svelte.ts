/**
 * Settings → "Notes as Markdown": the kept notes (decisions among them) written as a folder of
 * Markdown files (src/lib/core/markdown). Where the File System Access API exists, into a folder
 * the person picks (again and again: their edits are reported, never overwritten); elsewhere as a
 * ZIP download (fflate). Reads the vault; writes nothing to it.
 */
import { zipSync, strToU8 } from 'fflate';
import type { MarkdownExportReport, MarkdownFolder } from '../core/markdown/sync';
import { errors } from './errors.svelte';
import { downloadBlob } from './vault-file-download';
import { folderPermission, folderSyncSupported, pickFolder } from './vault-file-folder';
import { vaultViews } from '../store/views/vault-views';

/** A folder port over a directory handle (the picked folder; OPFS in tests). */
export function directoryFolder(root: FileSystemDirectoryHandle): MarkdownFolder {
  const dirOf = async (parts: readonly string[], create: boolean): Promise<FileSystemDirectoryHandle> => {
    let dir = root;
    for (const part of parts) dir = await dir.getDirectoryHandle(part, { create });
    return dir;
  };
  return {
    async list() {
      const out: string[] = [];
      const walk = async (dir: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
        for await (const [name, handle] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
          if (name.startsWith('.')) continue; // .obsidian, .trash, .git
          if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${prefix}${name}/`);
          else if (name.toLowerCase().endsWith('.md')) out.push(`${prefix}${name}`);
        }
      };
      await walk(root, '');
      return out;
    },
    async read(path) {
      const parts = path.split('/');
      const dir = await dirOf(parts.slice(0, -1), false);
      return (await (await dir.getFileHandle(parts.at(-1)!)).getFile()).text();
    },
    async write(path, text) {
      const parts = path.split('/');
      const dir = await dirOf(parts.slice(0, -1), true);
      const writable = await (await dir.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
      await writable.write(text);
      await writable.close();
    },
  };
}

const zipName = (now: number): string => `engram-notes-${new Date(now).toISOString().slice(0, 10)}.zip`;

/** Collects writes in memory (nothing exists before): the ZIP fallback. */
function memoryFolder(files: Map<string, string>): MarkdownFolder {
  return {
    list: async () => [...files.keys()],
    read: async (path) => files.get(path) ?? '',
    write: async (path, text) => void files.set(path, text),
  };
}

async function run(folder: MarkdownFolder): Promise<MarkdownExportReport> {
  // The export's code is only needed when the person asks for it.
  const [{ exportMarkdown }, views] = await Promise.all([import('../core/markdown/sync'), vaultViews()]);
  return exportMarkdown(await views.markdownInput(), folder);
}

export class MarkdownExport {
  readonly folderSupported = folderSyncSupported();
  busy = $state(false);
  report = $state<(MarkdownExportReport & { where: string }) | null>(null);

  /** Into a folder the person picks (re-runnable). False when they closed the picker. */
  async toFolder(): Promise<boolean> {
    const handle = await pickFolder();
    if (!handle) return false;
    if ((await folderPermission(handle, true)) !== 'granted') {
      errors.report(new Error('The browser did not allow writing to that folder.'), 'exporting notes as Markdown');
      return false;
    }
    return this.guard(async () => {
      this.report = { ...(await run(directoryFolder(handle))), where: handle.name };
    });
  }

  /** As a ZIP download (browsers without the folder picker, or by choice). */
  async toZip(): Promise<boolean> {
    return this.guard(async () => {
      // A scratch buffer for the ZIP, not reactive state.
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      const files = new Map<string, string>();
      const report = await run(memoryFolder(files));
      const zip = zipSync(Object.fromEntries([...files.entries()].map(([path, text]) => [path, strToU8(text)])));
      const name = zipName(Date.now());
      downloadBlob(new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), name);
      this.report = { ...report, where: name };
    });
  }

  private async guard(work: () => Promise<void>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    try {
      await work();
      return true;
    } catch (error) {
      errors.report(error, 'exporting notes as Markdown');
      return false;
    } finally {
      this.busy = false;
    }
  }
}

export const markdownExport = new MarkdownExport();
