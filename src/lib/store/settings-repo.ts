import { DEFAULT_REVIEW_SIZE, type InboxReview } from '../core/curate/inbox-order';
import type { EmbedderChoice } from '../core/api/embedder';
import type { LlmChoice } from '../core/api/llm-port';
import type { RerankerChoice } from '../core/api/reranker';
import type { RetentionReport, SweepSummary } from '../core/api/curate-api';
import type { VaultFileMark } from '../core/api/vault-file';
import type { VaultDb } from './schema';
import { runTx, withStoreTimeout, type TxOptions } from './transaction';

/** Typed key-value settings. Each key has a default, so a missing row is never an error. */
export interface SettingsShape {
  'vault.id': string | null;
  /** The vault's name as the registry shows it (travels in the vault file, so `engram vaults` and `engram mcp` can name it). */
  'vault.name': string | null;
  /** When this vault was first given an id (the vault file's `createdAt`). */
  'vault.createdAt': number | null;
  /** This device's id: the node part of every hybrid-logical-clock stamp it makes. */
  'vault.deviceId': string | null;
  'vault.firstImportAt': number | null;
  /** When this device last wrote a complete vault file (download, CLI or sync folder). */
  'vault.lastExportAt': number | null;
  /** What the newest vault file known to hold this vault's content covered ("changed since" is derived from it). */
  'vault.exportMark': VaultFileMark | null;
  /** Days without an export, after a change, before the reminder shows. */
  'vault.reminderDays': number;
  'vault.reminderSnoozedUntil': number | null;
  /** Whether the "keep a copy of your vault" offer was shown after the first import. */
  'vault.backupOffered': boolean;
  /** The sync folder (a FileSystemDirectoryHandle; structured-cloned into IndexedDB). */
  'vault.syncFolder': unknown;
  /** Minutes between scheduled writes to the sync folder; null = only on demand and at start. */
  'vault.syncIntervalMinutes': number | null;
  /** Whether files written to the sync folder are encrypted (the passphrase is never stored). */
  'vault.syncEncrypted': boolean;
  /** `exportedAt` of the newest sync-folder file merged or written here: older files are not merged again. */
  'vault.syncSeenExportedAt': number | null;
  /** SHA-256 of the sync-folder file last merged or written here: a file with another digest is merged. */
  'vault.syncSeenDigest': string | null;
  'vault.lastSyncAt': number | null;
  /**
   * Record versions from vault files that were stamped beyond the clock's drift bound and were
   * re-stamped here: `section:key` -> the future stamp (so the same version is not taken twice).
   */
  'vault.restamped': Record<string, string>;
  /** The active embedding model (the vault file's manifest names it); null until one is chosen. */
  'embedding.modelId': string | null;
  'jobs.paused': boolean;
  'storage.persistRequested': boolean;
  /** Index work paused by the person (the index worker's own queue, apart from 'jobs.paused'). */
  'index.paused': boolean;
  /** The embedder whose vector index answers searches on this device (null: the lexical one). */
  'index.serving': EmbedderChoice | null;
  /** An embedder whose index is being built in the background; it serves once complete. */
  'index.target': EmbedderChoice | null;
  /** Recall screen (device-only by their prefix): target model preset id or a custom window in tokens. */
  'device.recall.target': string | number;
  'device.recall.format': 'markdown' | 'xml';
  /** The funnel switch; off shows the plain hybrid ranking for comparison. */
  'device.recall.funnel': boolean;
  /** Copy to prompt adds the typed prompt after the package. */
  'device.recall.appendPrompt': boolean;
  /** The triple recipe (core/graph/triples.ts) every stored triple was written by; null: not all written yet. */
  'device.index.triples': string | null;
  /** Search the hints, questions each memory answers (core/recall/hints.ts); off by default (recall README, "Hints"). */
  'device.recall.hints': boolean;
  /** The cross-encoder of recall's second stage on this device (null: none, the first-stage order stands). */
  'device.recall.reranker': RerankerChoice | null;
  /**
   * A line flagged as possible prompt injection: left out of the package with a marker naming its
   * source (`drop`, the default) or kept, quoted as data (`quote`).
   */
  'device.recall.flaggedLines': 'drop' | 'quote';
  /** The language model this device uses for extraction and recall (null: none, the stated fallbacks run). */
  'llm.choice': LlmChoice | null;
  /** The Inbox's "review N today" queue on this device: N, and the candidate the person stopped at. */
  'device.inbox.review': InboxReview;
  /** Hours between scheduled cleaning sweeps when the app is idle (null: only on demand, from Notes). */
  'curate.sweepIntervalHours': number | null;
  /** What the last cleaning sweep did. */
  'curate.lastSweep': SweepSummary | null;
  /** Note history entries kept per note (older ones are purged by retention; the newest always stay). */
  'retention.historyPerNote': number;
  /** What the last retention run removed. */
  'retention.last': RetentionReport | null;
}

export const SETTING_DEFAULTS: SettingsShape = {
  'vault.id': null,
  'vault.name': null,
  'vault.createdAt': null,
  'vault.deviceId': null,
  'vault.firstImportAt': null,
  'vault.lastExportAt': null,
  'vault.exportMark': null,
  'vault.reminderDays': 7,
  'vault.reminderSnoozedUntil': null,
  'vault.backupOffered': false,
  'vault.syncFolder': null,
  'vault.syncIntervalMinutes': null,
  'vault.syncEncrypted': false,
  'vault.syncSeenExportedAt': null,
  'vault.syncSeenDigest': null,
  'vault.lastSyncAt': null,
  'vault.restamped': {},
  'embedding.modelId': null,
  'jobs.paused': false,
  'storage.persistRequested': false,
  'index.paused': false,
  'index.serving': null,
  'index.target': null,
  'device.recall.target': 'gpt-4o',
  'device.recall.format': 'markdown',
  'device.recall.funnel': true,
  'device.recall.hints': false,
  'device.recall.appendPrompt': false,
  'device.index.triples': null,
  'device.recall.reranker': null,
  'device.recall.flaggedLines': 'drop',
  'llm.choice': null,
  'device.inbox.review': { size: DEFAULT_REVIEW_SIZE, cursorId: null },
  'curate.sweepIntervalHours': 24,
  'curate.lastSweep': null,
  'retention.historyPerNote': 50,
  'retention.last': null,
};

/**
 * Settings that describe this device, not the vault: they are never written to a vault file, and
 * a restore or merge leaves them as they are. Everything else travels with the vault. A new
 * device-only setting is added here (or named with the `device.` prefix).
 */
export const DEVICE_SETTINGS: ReadonlySet<string> = new Set([
  'vault.deviceId',
  'vault.lastExportAt',
  'vault.exportMark',
  'vault.reminderSnoozedUntil',
  'vault.backupOffered',
  'vault.syncFolder',
  'vault.syncIntervalMinutes',
  'vault.syncEncrypted',
  'vault.syncSeenExportedAt',
  'vault.syncSeenDigest',
  'vault.lastSyncAt',
  'vault.restamped',
  'embedding.modelId',
  'jobs.paused',
  'storage.persistRequested',
  'llm.choice',
  // The sweep and retention run per device (their proposals, checkpoints and job queue are local).
  'curate.sweepIntervalHours',
  'curate.lastSweep',
  'retention.historyPerNote',
  'retention.last',
]);

export function isDeviceSetting(key: string): boolean {
  return DEVICE_SETTINGS.has(key) || key.startsWith('device.');
}

export class SettingsRepo {
  constructor(
    private readonly db: VaultDb,
    private readonly tx: TxOptions = {},
  ) {}

  async get<K extends keyof SettingsShape>(key: K): Promise<SettingsShape[K]> {
    const row = await withStoreTimeout(this.db.settings.get(key), { ...this.tx, label: `reading the setting ${key}` });
    return row === undefined ? SETTING_DEFAULTS[key] : (row.value as SettingsShape[K]);
  }

  set<K extends keyof SettingsShape>(key: K, value: SettingsShape[K]): Promise<void> {
    return runTx(this.db, 'rw', this.db.settings, async () => void (await this.db.settings.put({ key, value })), {
      ...this.tx,
      label: `saving the setting ${key}`,
    });
  }
}
