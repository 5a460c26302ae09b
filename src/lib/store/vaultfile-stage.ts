import type { VaultFileInfo, VaultFileProgressFn } from '../core/api/vault-file';
import { fail } from '../core/errors';
import type { VaultManifest } from '../core/vaultfile/format';
import type { DeriveKeyFn } from '../core/vaultfile/kdf';
import { readVault } from '../core/vaultfile/reader';
import { compareHlc } from '../core/vaultfile/hlc';
import { isStampedSection, type SectionName, type SectionRecords } from '../core/vaultfile/sections';
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
}

export interface StagedFile {
  manifest: VaultManifest;
  encrypted: boolean;
  spool: Spool;
  /** Latest stamp among the file's stamped records and tombstones. */
  maxHlc: string | null;
  skippedStaged: number;
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
        const kept = (event.records as AnyRecord[]).filter((row) => {
          if (isStagedRow(section, row)) {
            if (section === 'conversations') skippedConversations.add((row as { id: string }).id);
            return false;
          }
          return section !== 'messages' || !skippedConversations.has((row as { conversationId: string }).conversationId);
        });
        skippedStaged += event.records.length - kept.length;
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
        return { manifest, encrypted, spool, maxHlc, skippedStaged };
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
