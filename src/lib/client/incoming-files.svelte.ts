/**
 * Files that arrive from outside the app: shared into the installed app (share_target → the
 * service worker keeps them in a cache, src/service-worker.ts) or opened with it (file_handlers →
 * `launchQueue`). They wait here, on the Import screen, until the person imports them (or, for a
 * vault file, merges or restores it) or discards them. Nothing is imported without that choice.
 */
import { INCOMING_CACHE, INCOMING_PREFIX, MODIFIED_HEADER, NAME_HEADER } from '../core/capture/share-target';
import { isVaultFileHead, VAULT_HEAD_BYTES } from '../core/vaultfile/sniff';

export type IncomingOrigin = 'share' | 'open';

export interface IncomingFile {
  file: File;
  /** A vault file (decided by its first line) is restored or merged; anything else is imported. */
  kind: 'vault' | 'import';
}

export interface IncomingBatch {
  origin: IncomingOrigin;
  files: IncomingFile[];
  /** The cache batch id of shared files (deleted once handled). */
  batch: string | null;
}

/** The File Handling API's launch parameters (not yet in TypeScript's DOM library). */
interface LaunchParams {
  readonly files?: readonly { getFile(): Promise<File> }[];
}
interface LaunchQueue {
  setConsumer(consumer: (params: LaunchParams) => void): void;
}

/** The path of a cache key's URL (a plain string, not reactive state). */
function pathOf(url: string): string {
  return url.replace(/^[a-z]+:\/\/[^/]+/iu, '');
}

async function classify(file: File): Promise<IncomingFile> {
  const head = new Uint8Array(await file.slice(0, VAULT_HEAD_BYTES).arrayBuffer());
  return { file, kind: isVaultFileHead(head) ? 'vault' : 'import' };
}

export class IncomingFiles {
  pending = $state<IncomingBatch | null>(null);
  /** Set when a share arrived but its files could not be read back. */
  problem = $state<string | null>(null);

  /** Reads one batch of shared files back from the service worker's cache. */
  async loadShared(batch: string): Promise<void> {
    if (batch === 'unreadable') {
      this.problem = 'The shared files could not be read. Try sharing them again, or drop them here.';
      return;
    }
    if (typeof caches === 'undefined') return;
    const cache = await caches.open(INCOMING_CACHE);
    const prefix = `${INCOMING_PREFIX}${batch}/`;
    const keys = (await cache.keys()).filter((request) => pathOf(request.url).startsWith(prefix));
    keys.sort((a, b) => Number(a.url.split('/').pop()) - Number(b.url.split('/').pop()));
    const files: IncomingFile[] = [];
    for (const key of keys) {
      const response = await cache.match(key);
      if (!response) continue;
      const name = decodeURIComponent(response.headers.get(NAME_HEADER) ?? 'shared file');
      const lastModified = Number(response.headers.get(MODIFIED_HEADER) ?? Date.now());
      const blob = await response.blob();
      files.push(await classify(new File([blob], name, { type: blob.type, lastModified })));
    }
    if (files.length === 0) {
      this.problem = 'The shared files are no longer here (already imported or discarded).';
      return;
    }
    this.problem = null;
    this.pending = { origin: 'share', files, batch };
  }

  /** Files opened with the installed app (File Handling API); a no-op where the API is absent. */
  listenForLaunches(onlaunch: () => void): void {
    const queue = (globalThis as { launchQueue?: LaunchQueue }).launchQueue;
    if (!queue) return;
    queue.setConsumer((params) => {
      const handles = params.files ?? [];
      if (handles.length === 0) return;
      void Promise.all(handles.map(async (handle) => classify(await handle.getFile()))).then((files) => {
        this.problem = null;
        this.pending = { origin: 'open', files, batch: null };
        onlaunch();
      });
    });
  }

  /** Forgets the waiting files (after they were handled, or when the person discards them). */
  async clear(): Promise<void> {
    const batch = this.pending?.batch ?? null;
    this.pending = null;
    if (batch === null || typeof caches === 'undefined') return;
    const cache = await caches.open(INCOMING_CACHE);
    for (const key of await cache.keys()) {
      if (pathOf(key.url).startsWith(`${INCOMING_PREFIX}${batch}/`)) await cache.delete(key);
    }
  }
}

export const incomingFiles = new IncomingFiles();
