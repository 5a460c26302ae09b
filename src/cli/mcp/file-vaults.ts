/**
 * The vaults `engram mcp` serves: vault files (a sync folder keeps them current), each restored
 * into an in-memory vault and indexed by the app's index service at start. Between requests a file
 * that changed on disk (size, modification time or inode) is brought in again: merged into the
 * loaded copy by the vault file's merge rules (the index then re-chunks what changed and embeds only
 * what is new, the graph is kept), or restored whole when the merged copy does not hold exactly
 * what the file holds (a restore in the app drops records without tombstones). A request always
 * answers from the state it started with (the server runs one request at a time, mcp/server.ts).
 *
 * `remember` never edits the loaded copy's index: it restores the file as it is on disk now into a
 * scratch vault, adds the provisional candidate (an existing one is left alone: same text, same
 * id), and writes the file back atomically (a temporary file in the same folder, then a rename),
 * so the app merges it at its next sync by the vault file's merge rules. Should the app's sync
 * replace the file with one written before it merged ours, the candidate is written again when the
 * next load finds it missing.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import Dexie from 'dexie';
import type { VaultCounts } from '../../lib/core/api/vault-file';
import type { NoteRecord } from '../../lib/core/records';
import type { AgentVault, AgentVaults } from '../../lib/services/agent/agent-tools';
import { openInProcessIndex, type InProcessIndex } from '../../lib/services/index/in-process';
import type { VectorSearchMode } from '../../lib/services/index/model-index';
import type { Vault } from '../../lib/store/vault';
import { mergeVaultFile } from '../../lib/store/vaultfile-merge';
import { vaultCounts } from '../../lib/store/vaultfile-tables';
import { UsageError } from '../command';
import { closeScratchVault, exists, fileStream, loadVaultFile, openScratchVault, writeVaultFile } from '../commands/vault-file';
import { loadHnswlibQuietly } from '../recall/hnswlib-node';

export interface ServedFile {
  path: string;
  /** For an encrypted file: asked once at start, kept in memory only. */
  passphrase: string | null;
}

interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

interface Loaded extends AgentVault {
  index: InProcessIndex;
  stamp: FileStamp;
  vectors: boolean;
}

interface Served {
  file: ServedFile;
  name: string;
  loaded: Loaded;
  /** Candidates written here that the file must keep carrying (see the header). */
  pending: Map<string, NoteRecord>;
}

export interface FileVaultsOptions {
  vectorSearch?: VectorSearchMode;
  /** Progress lines (stderr: stdout carries the protocol). */
  log?: (line: string) => void;
  now?: () => number;
}

/**
 * How the server indexes a file it loads. The HNSW graph is built at every start (the in-memory
 * index cache dies with the process), so it is built with a smaller construction breadth than the
 * app's (efConstruction 64, not 200; M and the search breadth as the app's), which the profile of a
 * load showed to be most of its time; the health check that guards the app's graph guards this
 * one (recall@10 against exact search >= 0.95, else the search breadth is raised). Nothing is saved
 * in the middle of a job: nobody reads the cache after the process ends. See docs/AGENTS.md.
 */
export const SERVER_INDEX = { hnsw: { efConstruction: 64 }, saveEveryMs: Number.POSITIVE_INFINITY } as const;

async function stampOf(path: string): Promise<FileStamp> {
  const s = await stat(path);
  return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
}

const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** A file's stem, as the vault's name when the file carries none (`work.engram` -> "work"). */
export const stemOf = (path: string): string => basename(path).replace(/\.engram$/u, '') || basename(path);

async function disposeLoaded(loaded: Loaded): Promise<void> {
  loaded.index.close();
  const name = loaded.vault.db.name;
  await closeScratchVault(loaded.vault);
  await Dexie.delete(`${name}-index`).catch(() => undefined);
}

export class FileVaults implements AgentVaults {
  readonly #served: Served[];

  private constructor(
    served: Served[],
    private readonly options: FileVaultsOptions,
  ) {
    this.#served = served;
  }

  /**
   * Loads and indexes every file (in order) under the names given (`names[i]` for `files[i]`);
   * fails with the file's name when one cannot be read.
   */
  static async open(files: readonly ServedFile[], names: readonly string[], options: FileVaultsOptions = {}): Promise<FileVaults> {
    if (files.length === 0) throw new UsageError('Name at least one vault file with --vault FILE.');
    await loadHnswlibQuietly();
    const served: Served[] = [];
    try {
      for (const [i, file] of files.entries()) {
        if (!(await exists(file.path))) throw new UsageError(`${file.path} does not exist.`);
        const name = names[i] ?? stemOf(file.path);
        served.push({ file, name, loaded: await FileVaults.#load(file, name, options), pending: new Map() });
      }
    } catch (thrown) {
      for (const s of served) await disposeLoaded(s.loaded);
      throw thrown;
    }
    return new FileVaults(served, options);
  }

  static async #load(file: ServedFile, name: string, options: FileVaultsOptions): Promise<Loaded> {
    const started = performance.now();
    const stamp = await stampOf(file.path);
    const vault = await openScratchVault();
    try {
      const report = await loadVaultFile(vault, file.path, file.passphrase);
      const index = await openInProcessIndex(vault, { ...SERVER_INDEX, vectorSearch: options.vectorSearch ?? 'auto' });
      await index.runJobs();
      options.log?.(
        `Loaded ${file.path}: ${report.restored.conversations} conversations, ${report.restored.messages} messages, ` +
          `${index.service.recallSources().size()} units in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
      );
      return { name, vault, index, recaller: index.recaller(), stamp, vectors: report.file.vectorsIncluded };
    } catch (thrown) {
      await closeScratchVault(vault);
      throw thrown;
    }
  }

  names(): readonly string[] {
    return this.#served.map((s) => s.name);
  }

  #find(name: string): Served {
    const served = this.#served.find((s) => s.name === name);
    if (!served) throw new UsageError(`No vault called "${name}" is served here.`);
    return served;
  }

  /** The vault, brought up to date first when its file changed on disk since it was loaded. */
  async get(name: string): Promise<AgentVault> {
    const served = this.#find(name);
    const now = await stampOf(served.file.path);
    if (!sameStamp(now, served.loaded.stamp)) await this.#refresh(served, now);
    return served.loaded;
  }

  /** Merges the changed file into the loaded copy; restores it whole when the merge cannot make them equal. */
  async #refresh(served: Served, stamp: FileStamp): Promise<void> {
    const { loaded, file } = served;
    const started = performance.now();
    let exact = false;
    try {
      const report = await mergeVaultFile(loaded.vault, fileStream(file.path), { passphrase: file.passphrase ?? undefined });
      await loaded.index.runJobs();
      exact = sameCounts(await vaultCounts(loaded.vault.db), report.file.counts);
    } catch (thrown) {
      this.options.log?.(`Merging the changed ${file.path} failed (${String(thrown)}); loading it whole.`);
    }
    if (exact) {
      loaded.stamp = stamp;
      this.options.log?.(`Merged the changed ${file.path} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    } else {
      const fresh = await FileVaults.#load(file, served.name, this.options);
      served.loaded = fresh;
      await disposeLoaded(loaded);
    }
    const missing: NoteRecord[] = [];
    for (const [id, note] of served.pending) {
      const there = (await served.loaded.vault.db.notes.get(id)) ?? (await served.loaded.vault.db.tombstones.get(['notes', id]));
      if (there) served.pending.delete(id);
      else missing.push(note);
    }
    for (const note of missing) await this.#write(served, note);
  }

  async remember(name: string, note: NoteRecord): Promise<{ already: boolean; where: string }> {
    const served = this.#find(name);
    const already = await this.#write(served, note);
    return {
      already,
      where: already
        ? `Already in ${served.file.path}: it waits in the Inbox of "${served.name}" (or the person has seen it).`
        : `Written to ${served.file.path}: it appears in the Inbox of "${served.name}" after the app next syncs with that file.`,
    };
  }

  /** Adds `note` to the file on disk as it is now; true when the file already had it. */
  async #write(served: Served, note: NoteRecord): Promise<boolean> {
    const { file } = served;
    const before = await stampOf(file.path);
    const scratch = await openScratchVault();
    let already: boolean;
    try {
      const report = await loadVaultFile(scratch, file.path, file.passphrase);
      already = (await scratch.db.notes.get(note.id)) !== undefined || (await scratch.db.tombstones.get(['notes', note.id])) !== undefined;
      if (!already) {
        await saveCandidate(scratch, note, (this.options.now ?? Date.now)());
        await writeVaultFile(scratch, file.path, file.passphrase, { vectors: report.file.vectorsIncluded });
        served.pending.set(note.id, note);
      }
    } finally {
      await closeScratchVault(scratch);
    }
    // The loaded copy was the file as it was before this write: add the candidate to it and take the new file as loaded.
    if (!already && sameStamp(before, served.loaded.stamp)) {
      await saveCandidate(served.loaded.vault, note, (this.options.now ?? Date.now)());
      served.loaded.stamp = await stampOf(file.path);
    }
    return already;
  }

  async close(): Promise<void> {
    for (const served of this.#served) await disposeLoaded(served.loaded);
  }
}

/**
 * Whether the loaded copy holds what the file's manifest counts, in the sections a person's data
 * lives in (chunks, vectors and their tombstones are derived: the server indexes for itself).
 */
function sameCounts(loaded: VaultCounts, file: Partial<VaultCounts>): boolean {
  const sections = ['conversations', 'messages', 'notes'] as const;
  return sections.every((section) => loaded[section] === (file[section] ?? 0));
}

function saveCandidate(vault: Vault, note: NoteRecord, at: number): Promise<unknown> {
  return vault.notes.save(note, { actor: 'system', action: 'remember', why: 'Remembered by an agent over MCP (engram mcp).', at });
}
