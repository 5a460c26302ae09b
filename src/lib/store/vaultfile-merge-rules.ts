import type { MergeChanges } from '../core/api/vault-file';
import type { HistoryRecord, TombstoneRecord } from '../core/records';
import { displacedHistoryEntry, HISTORY_SECTIONS, mergeKey } from '../core/vaultfile/merge';
import {
  isStampedSection,
  isSyncBookkeeping,
  tombstoneKey,
  type SectionName,
  type SectionRecords,
  type StampedSection,
} from '../core/vaultfile/sections';
import type { Sha256 } from '../core/vaultfile/sha256';
import { compareVersions, pickVersion, survivesTombstone } from '../core/vaultfile/version-order';
import { isDeviceSetting } from './settings-repo';
import type { StoredSummary } from '../core/api/extract-api';
import { isSummarySetting, settingAsSummary, summaryAsSetting } from './summaries-repo';
import type { CheckpointWriter } from './checkpoints';
import { detachFromBlocks, getMessage, getMessages, type MessageTables } from './messages-store';
import type { BoundTables } from './vaultfile-commit';
import { primaryKeyOf, type AnyRecord } from './vaultfile-tables';

/**
 * The merge of one page of incoming records against the store, record by record with the core's
 * `mergeKey` and version order, so a store merge gives what `mergeVaults` gives in memory. Called
 * inside a transaction: in a read-only one to plan (which incoming records change anything), and
 * in the read-write commit to decide again against the store as it is then and apply.
 * Incoming tombstones are all known up front (`incomingTombs`): a file's tombstones come after its
 * records, and a record must be judged against the later of its local and incoming tombstone.
 *
 * Everything here awaits only IndexedDB requests (history entries are hashed synchronously with a
 * hasher acquired before the transaction): awaiting anything else inside a Dexie transaction can
 * lose it, and the commit must stay one transaction.
 */

export type IncomingTombstones = ReadonlyMap<string, TombstoneRecord>;

export interface MergeInputs {
  incomingTombs: IncomingTombstones;
  /** For history entry ids (core `displacedHistoryEntry`); get it with `await sharedSha256()` first. */
  hasher: Sha256;
}

export interface PageDecision {
  /** Incoming records that change the store (the plan keeps these). */
  relevant: AnyRecord[];
  puts: AnyRecord[];
  deletes: Array<{ section: StampedSection; id: string }>;
  history: HistoryRecord[];
  /** Session summaries the file's settings lines carry (they live in their own table). */
  summaries: StoredSummary[];
  changes: MergeChanges;
}

export function noChanges(): MergeChanges {
  return { added: 0, updated: 0, deleted: 0, tombstones: 0, history: 0 };
}

export function addChanges(into: MergeChanges, from: MergeChanges): void {
  for (const key of Object.keys(into) as (keyof MergeChanges)[]) into[key] += from[key];
}

function emptyDecision(): PageDecision {
  return { relevant: [], puts: [], deletes: [], history: [], summaries: [], changes: noChanges() };
}

/**
 * The common case of a sync (the record is already here, unchanged) without the canonical-JSON
 * comparison: the same bytes under JSON.stringify are the same value, which merge would keep as is.
 * Records that differ only in key order fall through to the full comparison. Not for vectors
 * (JSON cannot tell -0 from 0).
 */
function plainlyEqual(a: AnyRecord | undefined, b: AnyRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

function laterTombstone(a: TombstoneRecord | undefined, b: TombstoneRecord | undefined): TombstoneRecord | undefined {
  if (!a) return b;
  if (!b) return a;
  return pickVersion('tombstones', a, b);
}

/** History entries for displaced versions that are not yet in the store (deterministic ids by content). */
async function newHistory(
  tables: BoundTables,
  section: StampedSection,
  displaced: readonly AnyRecord[],
  hasher: Sha256,
): Promise<HistoryRecord[]> {
  if (displaced.length === 0 || !HISTORY_SECTIONS.includes(section)) return [];
  const entries = displaced.map((record) => displacedHistoryEntry(section, record as SectionRecords[StampedSection], hasher));
  const unique = [...new Map(entries.map((entry) => [entry.id, entry])).values()];
  const existing = await tables('history').bulkGet(unique.map((entry) => entry.id));
  return unique.filter((_, i) => existing[i] === undefined);
}

async function decideStamped<K extends StampedSection>(
  tables: BoundTables,
  section: K,
  incoming: readonly SectionRecords[K][],
  { incomingTombs, hasher }: MergeInputs,
): Promise<PageDecision> {
  const out = emptyDecision();
  const ids = incoming.map((row) => row.id);
  const locals = (section === 'messages' ? await getMessages(messageTablesOf(tables), ids) : await tables(section).bulkGet(ids)) as (
    SectionRecords[K] | undefined
  )[];
  const localTombs = await tables('tombstones').bulkGet(ids.map((id) => [section, id] as [string, string]));
  for (let i = 0; i < incoming.length; i++) {
    const row = incoming[i]!;
    const local = locals[i];
    if (plainlyEqual(local, row) && !incomingTombs.has(tombstoneKey(section, row.id))) continue;
    const tomb = laterTombstone(localTombs[i], incomingTombs.get(tombstoneKey(section, row.id)));
    const merged = mergeKey(section, local ? [local, row] : [row], tomb);
    let relevant = false;
    if (merged.record === null) {
      if (local) {
        out.deletes.push({ section, id: row.id });
        out.changes.deleted++;
        relevant = true;
      }
    } else if (merged.record !== local) {
      out.puts.push(merged.record);
      if (local) out.changes.updated++;
      else out.changes.added++;
      relevant = true;
    }
    const history = await newHistory(tables, section, merged.displaced, hasher);
    if (history.length > 0) {
      out.history.push(...history);
      relevant = true;
    }
    if (relevant) out.relevant.push(row);
  }
  return out;
}

async function decideTombstones(tables: BoundTables, incoming: readonly TombstoneRecord[], hasher: Sha256): Promise<PageDecision> {
  const out = emptyDecision();
  const locals = await tables('tombstones').bulkGet(incoming.map((t) => [t.table, t.id] as [string, string]));
  for (let i = 0; i < incoming.length; i++) {
    const tomb = incoming[i]!;
    const local = locals[i];
    if (local && compareVersions('tombstones', tomb, local) <= 0) continue;
    out.relevant.push(tomb);
    out.puts.push(tomb);
    out.changes.tombstones++;
    if (!isStampedSection(tomb.table)) continue;
    const row = (tomb.table === 'messages' ? await getMessage(messageTablesOf(tables), tomb.id) : await tables(tomb.table).get(tomb.id)) as
      SectionRecords[StampedSection] | undefined;
    if (row && !survivesTombstone(row, tomb)) {
      out.deletes.push({ section: tomb.table, id: tomb.id });
      out.changes.deleted++;
      out.history.push(...(await newHistory(tables, tomb.table, [row], hasher)));
    }
  }
  return out;
}

async function decideUnstamped<K extends 'history' | 'imports' | 'settings' | 'vectors'>(
  tables: BoundTables,
  section: K,
  incoming: readonly SectionRecords[K][],
): Promise<PageDecision> {
  const out = emptyDecision();
  let rows = section === 'settings' ? incoming.filter((row) => !isDeviceSetting((row as SectionRecords['settings']).key)) : incoming;
  if (section === 'settings') {
    await decideSummaries(tables, rows as readonly SectionRecords['settings'][], out);
    rows = rows.filter((row) => !isSummarySetting(row as SectionRecords['settings']));
  }
  const locals = await tables(section).bulkGet(rows.map((row) => primaryKeyOf(section, row)));
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const local = locals[i];
    if (section !== 'vectors' && plainlyEqual(local, row)) continue;
    if (local && compareVersions(section, row, local) <= 0) continue;
    out.relevant.push(row);
    out.puts.push(row);
    // A device's `vault.seen:` line is bookkeeping: written, but not a change of the vault.
    if (section === 'settings' && isSyncBookkeeping(row as SectionRecords['settings'])) continue;
    if (section === 'history') out.changes.history++;
    else if (local) out.changes.updated++;
    else out.changes.added++;
  }
  return out;
}

/** Summary lines against the summaries table, by the settings' version order. */
async function decideSummaries(tables: BoundTables, rows: readonly SectionRecords['settings'][], out: PageDecision): Promise<void> {
  const incoming = rows.map(settingAsSummary).filter((summary) => summary !== null);
  if (incoming.length === 0) return;
  const locals = await tables('summaries').bulkGet(incoming.map((summary) => summary.conversationId));
  for (let i = 0; i < incoming.length; i++) {
    const row = summaryAsSetting(incoming[i]!);
    const local = locals[i] ? summaryAsSetting(locals[i]!) : undefined;
    if (plainlyEqual(local, row)) continue;
    if (local && compareVersions('settings', row, local) <= 0) continue;
    out.relevant.push(row);
    out.summaries.push(incoming[i]!);
    if (local) out.changes.updated++;
    else out.changes.added++;
  }
}

/** The message tables of the transaction `tables` belong to. */
function messageTablesOf(tables: BoundTables): MessageTables {
  return { messages: tables('messages') as MessageTables['messages'], messageBlocks: tables('messageBlocks') };
}

/** Decides one page of one section. Must run inside a transaction over every vault-file table. */
export function decidePage(tables: BoundTables, section: SectionName, incoming: AnyRecord[], inputs: MergeInputs): Promise<PageDecision> {
  if (isStampedSection(section)) return decideStamped(tables, section, incoming as SectionRecords[typeof section][], inputs);
  if (section === 'tombstones') return decideTombstones(tables, incoming as TombstoneRecord[], inputs.hasher);
  return decideUnstamped(tables, section, incoming as SectionRecords['history' | 'imports' | 'settings' | 'vectors'][]);
}

/**
 * Writes a page's decision (inside the commit transaction). With a checkpoint writer, the
 * before-image of every row it changes is logged first (store/checkpoints.ts).
 */
export async function applyDecision(
  tables: BoundTables,
  section: SectionName,
  decision: PageDecision,
  writer?: CheckpointWriter,
): Promise<void> {
  const history = [...new Map(decision.history.map((entry) => [entry.id, entry])).values()];
  // A message the decision writes or deletes leaves its block first (each block logged as it was):
  // from then on it is a row, which the lines below log and write like any other.
  const messageIds = [
    ...(section === 'messages' ? decision.puts.map((row) => (row as SectionRecords['messages']).id) : []),
    ...decision.deletes.filter((d) => d.section === 'messages').map((d) => d.id),
  ];
  if (messageIds.length > 0)
    await detachFromBlocks(messageTablesOf(tables), messageIds, async (blocks) => {
      if (writer) for (const block of blocks) await writer.log('messageBlocks', block.id, block);
    });
  if (writer) {
    await writer.logRows(
      tables(section) as never,
      section,
      decision.puts.map((row) => primaryKeyOf(section, row)),
    );
    await writer.logRows(
      tables('summaries') as never,
      'summaries',
      decision.summaries.map((s) => s.conversationId),
    );
    for (const { section: table, id } of decision.deletes) await writer.logRows(tables(table) as never, table, [id]);
    await writer.logRows(
      tables('history') as never,
      'history',
      history.map((entry) => entry.id),
    );
  }
  if (decision.puts.length > 0) await tables(section).bulkPut(decision.puts);
  if (decision.summaries.length > 0) await tables('summaries').bulkPut(decision.summaries);
  for (const { section: table, id } of decision.deletes) await tables(table).delete(id);
  if (history.length > 0) {
    await tables('history').bulkPut(history);
    decision.changes.history += history.length;
  }
}
