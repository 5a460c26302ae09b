import type { MergeChanges, MergeReport, VaultFileProgressFn } from '../core/api/vault-file';
import type { TombstoneRecord } from '../core/records';
import type { DeriveKeyFn } from '../core/vaultfile/kdf';
import { SECTION_NAMES, tombstoneKey, type SectionName } from '../core/vaultfile/sections';
import { sharedSha256 } from '../core/vaultfile/sha256';
import { pickVersion } from '../core/vaultfile/version-order';
import { boundCheckpointTables, CheckpointWriter } from './checkpoints';
import { runTx, type TxOptions } from './transaction';
import type { Vault } from './vault';
import { boundTables, eachSpooledPage, queueReindex, runCommit } from './vaultfile-commit';
import { addChanges, applyDecision, decidePage, noChanges, type IncomingTombstones, type MergeInputs } from './vaultfile-merge-rules';
import { PhaseProgress, throwIfCancelled } from './vaultfile-progress';
import { Spool } from './vaultfile-spool';
import { recordRestamped, restampPolicy } from './vaultfile-drift';
import { fileInfo, stageVaultFile, type StagedFile } from './vaultfile-stage';
import { tableOf, totalOf, type AnyRecord } from './vaultfile-tables';

/**
 * Merge: the file's records join the vault by the core's per-record rules (merge.ts): the later
 * version of each record wins, a tombstone removes what it dominates, displaced note versions go to
 * `history`. Idempotent (merging the same file again changes nothing), commutative and associative
 * like the core's `mergeVaults`, whose result a store merge reproduces.
 *
 * Nothing is visible until the whole merge is: three steps.
 * 1. stage: the file is read and verified into a Spool; a bad file or passphrase fails here.
 * 2. plan: in bounded read-only transactions (one per page), each incoming record is compared
 *    with the vault; only records that change something go into a second spool (the delta). The
 *    vault is not written, and other writers are never blocked for long. Re-merging a file gives
 *    an empty delta and an empty commit.
 * 3. commit: ONE read-write transaction applies the delta (vaultfile-commit.ts), deciding every
 *    record again against the vault as it is at that moment, so an edit made between plan and
 *    commit is merged, not overwritten. The transaction is as large as the delta, not the file.
 *
 * Incoming tombstones are held in memory (a Map) during the merge: a record is judged against the
 * later of its local and incoming tombstone, and the file lists tombstones after the records.
 */

export interface MergeOptions {
  passphrase?: string;
  deriveKey?: DeriveKeyFn;
  signal?: AbortSignal;
  onProgress?: VaultFileProgressFn;
  now?: () => number;
  tx?: TxOptions;
  /** What is merged (a file name), for the checkpoint's label. */
  label?: string;
}

/** Order of the commit: records first, then the tombstones (which then see the merged records). */
const COMMIT_ORDER: readonly SectionName[] = SECTION_NAMES;

export async function mergeVaultFile(vault: Vault, stream: ReadableStream<Uint8Array>, options: MergeOptions = {}): Promise<MergeReport> {
  const now = options.now ?? Date.now;
  const staged = await stageVaultFile(stream, { ...options, operation: 'merge', restamp: await restampPolicy(vault, now()) });
  const delta = new Spool();
  let changes: MergeChanges;
  try {
    // The hasher is taken now: inside a transaction, only IndexedDB requests may be awaited.
    const inputs: MergeInputs = { incomingTombs: await tombstonesOf(staged.spool), hasher: await sharedSha256() };
    await planMerge(vault, staged, inputs, delta, options);
    changes = await commitMerge(vault, delta, inputs, options);
  } finally {
    staged.spool.clear();
    delta.clear();
  }
  if (staged.maxHlc) vault.clock.observe(staged.maxHlc);
  const notes = await recordRestamped(vault, staged.restamped);
  const unchanged = totalOf(changes as unknown as Record<string, number>) === 0;
  if (!unchanged) {
    await queueReindex(vault, 'vault-merge', now());
    // The merged vault is in no single file yet: "changed since the last export" until the next one.
    await vault.settings.set('vault.exportMark', null);
  }
  return {
    mode: 'merge',
    file: fileInfo(staged),
    changes,
    unchanged,
    skippedStaged: staged.skippedStaged,
    restamped: staged.restamped.size,
    notes,
  };
}

async function tombstonesOf(spool: Spool): Promise<IncomingTombstones> {
  const byKey = new Map<string, TombstoneRecord>();
  for await (const tomb of spool.records('tombstones')) {
    const key = tombstoneKey(tomb.table, tomb.id);
    const held = byKey.get(key);
    byKey.set(key, held ? pickVersion('tombstones', held, tomb) : tomb);
  }
  return byKey;
}

async function planMerge(vault: Vault, staged: StagedFile, inputs: MergeInputs, delta: Spool, options: MergeOptions) {
  const { db } = vault;
  const progress = new PhaseProgress(options.onProgress, 'comparing', totalOf(staged.manifest.counts));
  const tables = [...SECTION_NAMES.map((section) => tableOf(db, section)), db.messageBlocks, db.summaries];
  for (const section of staged.manifest.sections) {
    for await (const page of staged.spool.pages(section)) {
      throwIfCancelled(options.signal, 'merge');
      const decision = await runTx(db, 'r', tables, () => decidePage(boundTables(), section, page as AnyRecord[], inputs), {
        ...options.tx,
        label: 'comparing the file with the vault',
      });
      delta.append(section, decision.relevant as never[]);
      progress.add(page.length);
    }
  }
  progress.finish();
}

async function commitMerge(vault: Vault, delta: Spool, inputs: MergeInputs, options: MergeOptions): Promise<MergeChanges> {
  const now = options.now ?? Date.now;
  const { db } = vault;
  const records = SECTION_NAMES.reduce((sum, section) => sum + delta.count(section), 0);
  const changes = noChanges();
  if (records === 0) return changes;
  return runCommit(
    db,
    records,
    async () => {
      const tables = boundTables();
      const writer = await CheckpointWriter.open(boundCheckpointTables(), {
        reason: 'merge',
        label: options.label ? `Before merging ${options.label}` : 'Before merging a vault file',
        now: now(),
      });
      const progress = new PhaseProgress(options.onProgress, 'committing', records);
      for (const section of COMMIT_ORDER) {
        await eachSpooledPage(tables, delta, section, async (page) => {
          throwIfCancelled(options.signal, 'merge');
          const decision = await decidePage(tables, section, page as AnyRecord[], inputs);
          await applyDecision(tables, section, decision, writer);
          addChanges(changes, decision.changes);
          progress.add(page.length);
        });
      }
      await writer.finish();
      progress.finish();
      return changes;
    },
    { label: 'merging the file into the vault', tx: options.tx },
  );
}
