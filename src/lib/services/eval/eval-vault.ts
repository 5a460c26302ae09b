/**
 * What the evaluations do to a vault they filled: run the app's extraction job over it, and index it
 * with the app's index service for the length of a measurement, deleting it afterwards whatever
 * happened.
 */
import type { Vault } from '../../store/vault';
import { extractAndStore, termNeighbours } from '../extraction/extract-job';
import { openInProcessIndex, type InProcessIndex } from '../index/in-process';
import type { VectorSearchMode } from '../index/model-index';

/** The extraction job, rule-based, on every conversation of the vault, as the app runs it after an import. */
export async function extractEveryConversation(vault: Vault, onEach?: (done: number, total: number) => void): Promise<void> {
  const rows = await vault.db.conversations.toArray();
  let done = 0;
  for (const row of rows) {
    await extractAndStore({ vault, neighbours: termNeighbours(vault), llm: () => null }, row.id);
    onEach?.(++done, rows.length);
  }
}

/** Indexes `vault` (its index jobs run), hands the index to `measure`, then closes it and deletes the vault. */
export async function withIndexedVault<T>(
  vault: Vault,
  vectors: VectorSearchMode,
  measure: (index: InProcessIndex) => Promise<T>,
): Promise<T> {
  const index = await openInProcessIndex(vault, { vectorSearch: vectors }).catch(async (thrown: unknown) => {
    await vault.db.delete();
    throw thrown;
  });
  try {
    await index.runJobs();
    return await measure(index);
  } finally {
    index.close();
    await vault.db.delete();
  }
}
