import Dexie from 'dexie';
import type { HybridClock } from '../core/vaultfile/hlc';
import type { StampedSection } from '../core/vaultfile/sections';
import { openVaultClock } from './clock';
import { ConversationsRepo } from './conversations-repo';
import { deleteRecords } from './delete-records';
import { ImportsRepo } from './imports-repo';
import { JobsRepo } from './jobs-repo';
import { NotesRepo, type ChangeReason } from './notes-repo';
import { ProposalsRepo } from './proposals-repo';
import { ReadsRepo } from './reads-repo';
import { DEFAULT_DB_NAME, VaultDb, type DbOptions } from './schema';
import { SettingsRepo } from './settings-repo';
import type { TxOptions } from './transaction';

/** The store as the rest of the app sees it: one database and a repository per table group. */
export interface Vault {
  db: VaultDb;
  conversations: ConversationsRepo;
  notes: NotesRepo;
  /** Reads recall wrote back and packages the person copied (notes and chunks). */
  reads: ReadsRepo;
  /** The cleaning sweep's proposals. */
  proposals: ProposalsRepo;
  jobs: JobsRepo;
  imports: ImportsRepo;
  settings: SettingsRepo;
  /** This context's hybrid logical clock: stamps every synced record written here. */
  clock: HybridClock;
  /**
   * Deletes synced records and writes their tombstones in one transaction (delete-records.ts).
   * Every deletion of a conversation, message, note or chunk goes through here, or merges bring it back.
   */
  deleteRecords(table: StampedSection, ids: readonly string[], reason?: ChangeReason): Promise<number>;
}

export async function openVault(
  name: string = DEFAULT_DB_NAME,
  options: DbOptions & { tx?: TxOptions; /** This device's clock (tests give a skewed one). */ now?: () => number } = {},
): Promise<Vault> {
  const db = new VaultDb(name, options);
  await db.open();
  const tx = options.tx ?? {};
  const settings = new SettingsRepo(db, tx);
  const clock = await openVaultClock(settings, options.now);
  return {
    db,
    conversations: new ConversationsRepo(db, tx),
    notes: new NotesRepo(db, () => clock.stamp(), tx),
    reads: new ReadsRepo(db, tx),
    proposals: new ProposalsRepo(db, tx),
    jobs: new JobsRepo(db, tx),
    imports: new ImportsRepo(db, tx),
    settings,
    clock,
    deleteRecords: (table, ids, reason) => deleteRecords({ db, stamp: () => clock.stamp(), tx }, table, ids, reason),
  };
}

/** Deletes a vault's database whole (the registry entry and saved indexes are the caller's). */
export async function deleteVaultDatabase(name: string): Promise<void> {
  await Dexie.delete(name);
}
