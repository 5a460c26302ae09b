/**
 * What the evaluations do to a vault they filled: run the app's extraction job over it, and index it
 * with the app's index service for the length of a measurement, deleting it afterwards whatever
 * happened.
 */
import type { Llm } from '../../core/api/llm';
import type { Vault } from '../../store/vault';
import { extractAndStore, termNeighbours } from '../extraction/extract-job';
import { openInProcessIndex, type InProcessIndex } from '../index/in-process';
import type { VectorSearchMode } from '../index/model-index';

/**
 * The extraction job on every conversation of the vault, as the app runs it after an import: rule-based,
 * or with `llm` as the app runs it while a model is loaded (units and session summaries by the model,
 * the rules wherever it fails).
 */
export async function extractEveryConversation(
  vault: Vault,
  onEach?: (done: number, total: number) => void,
  llm: Llm | null = null,
): Promise<void> {
  const rows = await vault.db.conversations.toArray();
  let done = 0;
  for (const row of rows) {
    await extractAndStore({ vault, neighbours: termNeighbours(vault), llm: () => llm }, row.id);
    onEach?.(++done, rows.length);
  }
}

/** Indexes `vault` (its index jobs run; with `llm`, the community summaries' job too when queued), hands the index to `measure`, then closes it and deletes the vault. */
export async function withIndexedVault<T>(
  vault: Vault,
  vectors: VectorSearchMode,
  measure: (index: InProcessIndex) => Promise<T>,
  llm: Llm | null = null,
): Promise<T> {
  const index = await openInProcessIndex(vault, { vectorSearch: vectors, llm }).catch(async (thrown: unknown) => {
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
