/**
 * Vaults and vault files for the agent tests, made the app's way: transcripts through the importer,
 * a kept decision through the notes repository, the file written by the vault-file service's sync
 * (as the app writes a sync folder), into a real folder on disk that `engram mcp` reads.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport } from '../../src/lib/store/importer';
import { openVault, type Vault } from '../../src/lib/store/vault';
import { createVaultFileService } from '../../src/lib/services/vault-file/vault-file-service';
import { note } from './records';

let seq = 0;

export const transcript = (...turns: [string, string][]): string => turns.map(([who, text]) => `${who}: ${text}`).join('\n\n');

/** Imports each text as a pasted transcript (one conversation each). */
export async function importTexts(vault: Vault, texts: readonly string[]): Promise<void> {
  for (const [i, text] of texts.entries()) {
    const bytes = new TextEncoder().encode(text);
    const report = await runImport(vault, [{ name: `chat-${i}.txt`, size: bytes.length, bytes: new Blob([bytes]).stream() }]);
    if (report.totals.conversations.stored + report.totals.resources.stored === 0) throw new Error(`nothing imported from text ${i}`);
  }
}

export async function appVault(name: string, texts: readonly string[], decisions: readonly string[] = []): Promise<Vault> {
  seq += 1;
  const vault = await openVault(`agent-test-${process.pid}-${seq}-${Date.now()}`);
  await vault.settings.set('vault.name', name);
  await importTexts(vault, texts);
  for (const [i, text] of decisions.entries()) {
    await vault.notes.save(
      note({
        id: `note-decision-${seq}-${i}`,
        text,
        category: 'Decisions',
        status: 'kept',
        keptAt: 1_700_000_000_000 + i,
        conversationId: null,
        sourceMessageIds: [],
      }),
      { actor: 'user', action: 'keep', why: 'test', at: 1_700_000_000_000 + i },
    );
  }
  return vault;
}

/** A FileSystemDirectoryHandle over a real folder (enough of it for the sync). Writes land with a rename, like Chromium's swap file. */
export function diskFolder(dir: string): FileSystemDirectoryHandle {
  const folder = {
    name: dir,
    async getFileHandle(name: string, options?: { create?: boolean }) {
      const path = join(dir, name);
      const present = await readFile(path).then(
        () => true,
        () => false,
      );
      if (!present && !options?.create) throw new DOMException('not found', 'NotFoundError');
      return {
        async getFile() {
          const bytes = await readFile(path).catch(() => new Uint8Array());
          return new File([new Uint8Array(bytes)], name, { lastModified: Date.now() });
        },
        async createWritable() {
          const parts: Uint8Array[] = [];
          return new WritableStream<Uint8Array>({
            write: (chunk) => void parts.push(chunk),
            close: async () => {
              await writeFile(`${path}.crswap`, Buffer.concat(parts));
              await rename(`${path}.crswap`, path);
            },
          });
        },
      };
    },
  };
  return folder as unknown as FileSystemDirectoryHandle;
}

/** Syncs `vault` with `fileName` in `dir` the way the app does (merge a newer file, then write). */
export async function syncWithFolder(vault: Vault, dir: string, fileName: string) {
  await mkdir(dir, { recursive: true });
  const service = createVaultFileService(Promise.resolve(vault), { appVersion: '0.1.0-test', syncFileName: fileName });
  return service.syncFolder(`sync-${++seq}`, diskFolder(dir), { write: true });
}
