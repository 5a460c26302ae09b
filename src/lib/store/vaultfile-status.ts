import type { ChangeCheck, ReminderState, StatusCounts, VaultCounts, VaultFileMark, VaultFileStatus } from '../core/api/vault-file';
import { vaultDigest } from '../core/vaultfile/digest';
import { emptyVaultState, SECTION_NAMES, STAMPED_SECTIONS, type VaultState } from '../core/vaultfile/sections';
import type { VaultDb } from './schema';
import { withStoreTimeout } from './transaction';
import type { Vault } from './vault';
import { snapshotVault } from './vaultfile-export';
import { isExportable, stagedConversationIds, tableOf, vaultCounts } from './vaultfile-tables';
import { scanMessages } from './messages-store';

/** Messages read per page when looking for a change. */
const MESSAGE_SCAN_PAGE = 2_000;

/**
 * "Has the vault changed since its last export?" is derived from the records, not kept as a flag
 * every writer would have to remember to set: an export records a mark (the counts it wrote and the
 * latest stamp among its records); the vault has changed when a count differs or any record or
 * tombstone carries a later stamp (stamps follow the device's clock, so anything written after the
 * export is stamped later than what it held; only another device's clock running ahead can hide an
 * edit until the next export). A merge that changed something clears the mark (the merged vault is
 * in no file yet), a restore sets it (the vault is exactly that file). The stamp check scans records
 * that lack an index on `hlc`, so it runs only when asked or when the reminder's time has come.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Dismissing the reminder hides it this long. */
export const SNOOZE_MS = DAY_MS;
/** Sections whose counts tell a change (vectors are derived; device settings are not exported). */
const CONTENT = ['conversations', 'messages', 'notes', 'chunks', 'history', 'imports', 'tombstones'] as const;

export async function changedSinceMark(db: VaultDb, mark: VaultFileMark | null, counts: StatusCounts): Promise<boolean> {
  if (!mark) return CONTENT.some((name) => counts[name] > 0);
  if (CONTENT.some((name) => counts[name] !== (mark.counts[name] ?? 0))) return true;
  const since = mark.hlc;
  if (since === null) return false;
  return withStoreTimeout(
    (async () => {
      if ((await db.tombstones.where('hlc').above(since).count()) > 0) return true;
      const staged = await stagedConversationIds(db);
      for (const section of STAMPED_SECTIONS) {
        // Messages are rows or blocks of several (store/messages-store.ts): read through their scan.
        const later =
          section === 'messages'
            ? await scanMessages(db, MESSAGE_SCAN_PAGE, (page) => page.some((m) => m.hlc > since && isExportable(section, m, staged)))
            : await tableOf(db, section)
                .filter((row) => row.hlc > since && isExportable(section, row, staged))
                .first();
        if (later) return true;
      }
      return false;
    })(),
    { timeoutMs: 5 * 60_000, label: 'looking for changes since the last export' },
  );
}

export function reminderState(input: {
  now: number;
  days: number;
  since: number | null;
  changed: boolean | null;
  snoozedUntil: number | null;
}): ReminderState {
  const old = input.since !== null && input.now - input.since >= input.days * DAY_MS;
  const snoozed = input.snoozedUntil !== null && input.snoozedUntil > input.now;
  return { due: old && !snoozed && input.changed === true, days: input.days, since: input.since };
}

/** The counts a status carries: all but the vectors'. */
function statusCounts({ vectors: _vectors, ...counts }: VaultCounts): StatusCounts {
  return counts;
}

export async function vaultFileStatus(vault: Vault, check: ChangeCheck, now: number = Date.now()): Promise<VaultFileStatus> {
  const { settings, db } = vault;
  const lastExportAt = await settings.get('vault.lastExportAt');
  const days = await settings.get('vault.reminderDays');
  const snoozedUntil = await settings.get('vault.reminderSnoozedUntil');
  const firstImport = await db.imports.orderBy('startedAt').first();
  const since = lastExportAt ?? (await settings.get('vault.firstImportAt')) ?? firstImport?.startedAt ?? null;
  const provisional = reminderState({ now, days, since, changed: true, snoozedUntil });
  // At start-up (`if-due`) nothing is counted until the reminder could be due: the counts walk
  // every table, and the index worker's load waits behind them on the database's queue.
  const counts = check === 'always' || provisional.due ? statusCounts(await vaultCounts(db, { vectors: false })) : null;
  const changed = counts ? await changedSinceMark(db, await settings.get('vault.exportMark'), counts) : null;
  return {
    vaultId: await settings.get('vault.id'),
    counts,
    lastExportAt,
    changedSinceExport: changed,
    reminder: reminderState({ now, days, since, changed, snoozedUntil }),
  };
}

/**
 * What an export of the vault would hold, in memory (vectors included). For fingerprints and tests
 * of small vaults: it holds every record at once.
 */
export async function exportableState(vault: Vault): Promise<VaultState> {
  const snapshot = await snapshotVault(vault, SECTION_NAMES);
  const state = emptyVaultState();
  for (const section of SECTION_NAMES) {
    for await (const page of snapshot.spool.pages(section)) (state[section] as unknown[]).push(...page);
  }
  snapshot.spool.clear();
  return state;
}

/** The canonical digest (core `vaultDigest`) of what an export would hold. */
export async function vaultFingerprint(vault: Vault): Promise<string> {
  return vaultDigest(await exportableState(vault));
}

/**
 * The fingerprint two devices compare (Settings): the digest of the person's records only. Chunks
 * and vectors are the index, derived from those records and rebuilt by each device at its own pace
 * (stamps and HNSW labels are device-local), so they are left out (the digest leaves out the
 * `vault.seen:` bookkeeping lines itself): two devices that hold the same
 * conversations, messages, notes, history, imports, settings and deletions show the same fingerprint
 * whether or not their indexes have caught up.
 */
export async function contentFingerprint(vault: Vault): Promise<string> {
  const state = await exportableState(vault);
  return vaultDigest({ ...state, chunks: [], vectors: [] });
}
