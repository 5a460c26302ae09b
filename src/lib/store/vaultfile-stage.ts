import type { VaultFileInfo, VaultFileProgressFn } from '../core/api/vault-file';
import { fail } from '../core/errors';
import type { VaultManifest } from '../core/vaultfile/format';
import type { DeriveKeyFn } from '../core/vaultfile/kdf';
import { readVault } from '../core/vaultfile/reader';
import { compareHlc } from '../core/vaultfile/hlc';
import type { TombstoneRecord } from '../core/records';
import { beyondDrift, type RestampPolicy } from '../core/vaultfile/drift';
import { isStampedSection, tombstoneKey, type SectionName, type SectionRecords } from '../core/vaultfile/sections';
import { PhaseProgress, throwIfCancelled } from './vaultfile-progress';
import { Spool } from './vaultfile-spool';
import { isStagedRow, totalOf, type AnyRecord } from './vaultfile-tables';

/**
 * Step one of a restore or a merge: the file is read, verified and staged in a Spool, and nothing
 * of the vault is touched. The reader may yield genuine records of a damaged or tampered file before
 * it fails (checksums sit at the ends of sections, the trailer at the end of the file), so nothing
 * staged is used unless the reader reached its `end` event. A wrong passphrase fails before any
 * record; a cancel stops the read. Rows of unfinished imports (`state: 'staged'`) are left out.
 */

export interface StageOptions {
  passphrase?: string;
  deriveKey?: DeriveKeyFn;
  signal?: AbortSignal;
  onProgress?: VaultFileProgressFn;
  operation: 'restore' | 'merge';
  /** Re-stamps records stamped beyond the drift bound (drift.ts); absent: taken as they are. */
  restamp?: RestampPolicy;
}

export interface StagedFile {
  manifest: VaultManifest;
  encrypted: boolean;
  spool: Spool;
  /** Latest stamp among the file's stamped records and tombstones (after re-stamping). */
  maxHlc: string | null;
  skippedStaged: number;
  /** Records re-stamped to this device's clock: key -> the future stamp they carried. */
  restamped: Map<string, string>;
}

export function fileInfo(staged: Pick<StagedFile, 'manifest' | 'encrypted'>): VaultFileInfo {
  const m = staged.manifest;
  return {
    vaultId: m.vaultId,
    createdAt: m.createdAt,
    exportedAt: m.exportedAt,
    appVersion: m.appVersion,
    encrypted: staged.encrypted,
    vectorsIncluded: m.vectorsIncluded,
    embeddingModelId: m.embeddingModelId,
    counts: { ...m.counts },
  };
}

export async function stageVaultFile(stream: ReadableStream<Uint8Array>, options: StageOptions): Promise<StagedFile> {
  const spool = new Spool();
  let manifest: VaultManifest | null = null;
  let encrypted = false;
  let maxHlc: string | null = null;
  let skippedStaged = 0;
  const future: { key: string; hlc: string }[] = [];
  // Conversations of unfinished imports left out, and so their messages (conversations come first).
  const skippedConversations = new Set<string>();
  let progress: PhaseProgress | null = null;
  const events = readVault(stream, { passphrase: options.passphrase, deriveKey: options.deriveKey });
  try {
    for await (const event of events) {
      throwIfCancelled(options.signal, options.operation);
      if (event.kind === 'manifest') {
        manifest = event.manifest;
        encrypted = event.encrypted;
        progress = new PhaseProgress(options.onProgress, 'reading-file', totalOf(event.manifest.counts));
      } else if (event.kind === 'records') {
        const section: SectionName = event.section;
        let kept = (event.records as AnyRecord[]).filter((row) => {
          if (isStagedRow(section, row)) {
            if (section === 'conversations') skippedConversations.add((row as { id: string }).id);
            return false;
          }
          return section !== 'messages' || !skippedConversations.has((row as { conversationId: string }).conversationId);
        });
        skippedStaged += event.records.length - kept.length;
        if ((isStampedSection(section) || section === 'tombstones') && options.restamp) {
          const policy = options.restamp;
          kept = kept.filter((row) => {
            const stamped = row as { hlc: string };
            if (!beyondDrift(stamped.hlc, policy.now, policy.maxDriftMs)) return true;
            const key = recordKeyOf(section, row);
            // Re-stamped before (the same version in the next file from that device): skipped.
            if (policy.taken.get(key) === stamped.hlc) return false;
            future.push({ key, hlc: stamped.hlc });
            return true;
          });
        }
        if (isStampedSection(section) || section === 'tombstones') {
          for (const row of kept) {
            const hlc = (row as { hlc: string }).hlc;
            if (maxHlc === null || compareHlc(hlc, maxHlc) > 0) maxHlc = hlc;
          }
        }
        spool.append(section, kept as SectionRecords[typeof section][]);
        progress?.add(event.records.length);
      } else if (event.kind === 'end') {
        progress?.finish();
        if (!manifest) break;
        if (future.length > 0 && options.restamp) {
          const rewritten = await restampSpool(spool, manifest.sections, future, options.restamp);
          spool.clear();
          return { manifest, encrypted, spool: rewritten.spool, maxHlc: rewritten.maxHlc, skippedStaged, restamped: rewritten.restamped };
        }
        return { manifest, encrypted, spool, maxHlc, skippedStaged, restamped: new Map() };
      }
    }
  } catch (error) {
    spool.clear();
    throw error;
  } finally {
    await events.return(undefined);
  }
  spool.clear();
  return fail('vault/corrupt', 'The file ended before its closing line: it is incomplete.');
}

/** A record's key across files (`notes:<id>`, `tombstones:notes:<id>`): what a re-stamp is remembered by. */
function recordKeyOf(section: SectionName, row: AnyRecord): string {
  if (section === 'tombstones') return `tombstones:${tombstoneKey((row as TombstoneRecord).table, (row as TombstoneRecord).id)}`;
  return `${section}:${(row as { id: string }).id}`;
}

/**
 * The staged file with its future-stamped records re-stamped to this device's clock, in the order
 * of their original stamps (an edit after a deletion stays after it), as a new spool.
 */
async function restampSpool(
  spool: Spool,
  sections: readonly SectionName[],
  future: readonly { key: string; hlc: string }[],
  policy: RestampPolicy,
): Promise<{ spool: Spool; maxHlc: string | null; restamped: Map<string, string> }> {
  const order = [...future].sort((a, b) => compareHlc(a.hlc, b.hlc) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const fresh = new Map(order.map(({ key }) => [key, policy.stamp()]));
  const restamped = new Map(order.map(({ key, hlc }) => [key, hlc]));
  const out = new Spool();
  let maxHlc: string | null = null;
  for (const section of sections) {
    const stamped = isStampedSection(section) || section === 'tombstones';
    for await (const page of spool.pages(section)) {
      const rows = stamped
        ? (page as AnyRecord[]).map((row) => {
            const hlc = fresh.get(recordKeyOf(section, row));
            const next = hlc ? ({ ...row, hlc } as AnyRecord) : row;
            const stamp = (next as { hlc: string }).hlc;
            if (maxHlc === null || compareHlc(stamp, maxHlc) > 0) maxHlc = stamp;
            return next;
          })
        : page;
      out.append(section, rows as SectionRecords[typeof section][]);
    }
  }
  return { spool: out, maxHlc, restamped };
}
