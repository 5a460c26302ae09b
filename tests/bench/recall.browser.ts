/**
 * Recall's query latency in Chromium (recall.bench.ts, `recall.chromium.<size>.*`): the recall
 * benchmark's vault imported into the page's IndexedDB, indexed by the index service in this page,
 * and asked through the recall service, as the app's index worker does. What differs from the Node
 * figure (`recall.<size>.query_p95_ms`) is where the vault lives: here in IndexedDB, out of the
 * JavaScript heap, as in the app; in Node, fake-indexeddb keeps every row in the same heap as the
 * index, which makes each young-generation collection slower (see recall.bench.ts).
 */
import { parsedEvents } from '../../src/lib/core/import/parsed-events';
import type { ParsedConversation } from '../../src/lib/core/import/parsed';
import { openInProcessIndex, type InProcessIndex } from '../../src/lib/services/index/in-process';
import { runImport } from '../../src/lib/store/importer';
import { openVault, type Vault } from '../../src/lib/store/vault';
import { heapMb } from './page-heap';

let pending: ParsedConversation[] = [];
let opened: { vault: Vault; index: InProcessIndex } | null = null;

export interface RecallBuild {
  messages: number;
  units: number;
  structure: string;
  importS: number;
  buildS: number;
}

export interface RecallRun {
  /** Each question's time, ms. */
  samples: number[];
}

/** Functions the benchmark runner calls inside Chromium (see tests/bench/browser/main.ts). */
export const functions = {
  /** Conversations arrive in batches: one message of the whole vault would be hundreds of megabytes. */
  recallAdd: (args: unknown) => {
    pending.push(...(args as { conversations: ParsedConversation[] }).conversations);
    return Promise.resolve(pending.length);
  },
  /** Imports what was added into a fresh vault and indexes it; the conversations are then let go. */
  recallBuild: async (): Promise<RecallBuild> => {
    let t = performance.now();
    const vault = await openVault(`bench-recall-${Date.now()}`);
    const report = await runImport(vault, [
      { name: 'bench', size: null, events: parsedEvents('bench.json', 'transcript', pending, [], 0) },
    ]);
    pending = [];
    const importS = (performance.now() - t) / 1000;
    t = performance.now();
    const index = await openInProcessIndex(vault);
    await index.runJobs();
    await index.service.structure.index();
    // The int8 scan's column copy, which the index service fills in the background: the timed
    // passes measure the settled read path, as the Node figure does.
    await index.service.scanColumnsSettled();
    const buildS = (performance.now() - t) / 1000;
    opened = { vault, index };
    return {
      messages: report.totals.messages.stored,
      units: index.service.parts.catalog.size,
      structure: index.service.parts.indexes.serving.model!.index.structure,
      importS,
      buildS,
    };
  },
  /** Asks each question once, as the Node figure does (no write-back, a fixed clock). */
  recallQueries: async (args: unknown): Promise<RecallRun> => {
    if (!opened) throw new Error('recallBuild first');
    const recaller = opened.index.recaller();
    const samples: number[] = [];
    for (const prompt of (args as { questions: string[] }).questions) {
      const started = performance.now();
      const outcome = await recaller.answer({ prompt }, { now: Date.UTC(2025, 0, 1), writeBack: false });
      samples.push(performance.now() - started);
      if (!outcome.ok) throw new Error(outcome.error.message);
    }
    return { samples };
  },
  /** The page's heap in MB (`performance.memory`), read after the runner forced a full collection. */
  recallHeap: () => Promise.resolve(heapMb()),
  recallClose: async () => {
    if (!opened) return null;
    opened.index.close();
    await opened.vault.db.delete();
    opened = null;
    return null;
  },
};
