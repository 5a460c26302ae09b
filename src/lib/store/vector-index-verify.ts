/**
 * Verification of a reloaded vector index against the vault (DESIGN: "its label map verified on
 * load (count, sampled content hashes)"). An index that surfaces correct content under wrong ids is
 * worse than none: any mismatch is reported as `index/corrupt` so the caller rebuilds and says so.
 */
import { err, ok, type Result, toVaultError, vaultError } from '../core/errors';
import { sampleIndexes } from '../core/index/health';
import { VectorIndex, type VectorIndexOptions } from './vector-index';
import { hashPrefix } from './vector-index-manifest';
import { cosine } from '../core/index/vector-math';

/** What the vault itself says about the vectors of one model (the vectors table, in practice). */
export interface VectorTruth {
  count(): Promise<number>;
  /** Current content hash, and the stored vector when at hand, of these records. */
  lookup(recordIds: readonly string[]): Promise<Map<string, { contentHash: string; vector?: Float32Array }>>;
}

export interface VerificationReport {
  ok: boolean;
  count: number;
  sampled: number;
  problems: string[];
  verifiedAt: number;
}

export interface VerifyOptions {
  sample?: number;
  rng: () => number;
  now?: () => number;
}

export async function verifyVectorIndex(index: VectorIndex, truth: VectorTruth, options: VerifyOptions): Promise<VerificationReport> {
  const problems: string[] = [];
  const { slots, deletedLabels } = index.internals();
  if (slots - deletedLabels.length !== index.count) {
    problems.push(`the index file holds ${slots - deletedLabels.length} live vectors, the label map ${index.count}`);
  }
  const expected = await truth.count();
  if (expected !== index.count) problems.push(`the vault holds ${expected} vectors, the index ${index.count}`);
  const live = index.labels();
  const deleted = new Set(deletedLabels);
  const picked = sampleIndexes(live.length, options.sample ?? 32, options.rng).map((i) => live[i]!);
  const entries = picked.map((label) => ({ label, entry: index.entryOf(label)! }));
  const current = await truth.lookup(entries.map((e) => e.entry.recordId));
  for (const { label, entry } of entries) {
    const found = current.get(entry.recordId);
    if (deleted.has(label)) problems.push(`label ${label} is live in the map but deleted in the index`);
    else if (!found) problems.push(`label ${label} names ${entry.recordId}, which the vault does not hold`);
    else if (hashPrefix(found.contentHash) !== entry.hash) problems.push(`label ${label} (${entry.recordId}) was built from other content`);
    else if (found.vector && cosine(found.vector, index.vectorOf(label)) < 0.999)
      problems.push(`label ${label} (${entry.recordId}) holds another vector`);
  }
  return { ok: problems.length === 0, count: index.count, sampled: picked.length, problems, verifiedAt: (options.now ?? Date.now)() };
}

/**
 * Opens the saved index and verifies it. `store/not-found` when nothing is saved; `index/corrupt`
 * (with the report as detail) when it cannot be read or does not match the vault.
 */
export async function loadVerifiedIndex(
  options: VectorIndexOptions,
  truth: VectorTruth,
  verify: VerifyOptions,
): Promise<Result<{ index: VectorIndex; report: VerificationReport }>> {
  let index: VectorIndex | null;
  try {
    index = await VectorIndex.open(options);
  } catch (thrown) {
    return err(toVaultError(thrown, 'index/corrupt'));
  }
  if (!index) return err(vaultError('store/not-found', `No saved vector index named ${options.name}.`));
  const report = await verifyVectorIndex(index, truth, verify);
  if (!report.ok) return err(vaultError('index/corrupt', 'The vector index does not match the vault; it will be rebuilt.', report));
  return ok({ index, report });
}
