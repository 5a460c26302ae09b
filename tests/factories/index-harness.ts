/**
 * The index service on a fresh vault in fake-indexeddb, with a job runner driven by hand: import
 * files the way the app does (the importer queues index.update), then `drain()` runs the index
 * jobs until none is left.
 */
import { JobRunner, type RunnerOptions } from '../../src/lib/store/job-runner';
import { queueIndexing } from '../../src/lib/store/index-queue';
import { runImport, type ImportInput } from '../../src/lib/store/importer';
import { openIndexCache } from '../../src/lib/store/vector-index-manifest';
import { openVault, type Vault } from '../../src/lib/store/vault';
import type { EmbedderHost } from '../../src/lib/services/index/embedder-host';
import { inProcessEmbedderHost } from '../../src/lib/services/index/in-process-host';
import type { IndexServiceDeps } from '../../src/lib/services/index/index-service';
import { IndexService } from '../../src/lib/services/index/index-service';
import { afterEach } from 'vitest';
import { seededRng } from './db';
import { BUDGET, DOCUMENT, MAPLE, MOSS } from './index-fixtures';

let counter = 0;

export interface Harness {
  vault: Vault;
  cache: ReturnType<typeof openIndexCache>;
  service: IndexService;
  runner: JobRunner;
  importText(name: string, text: string): Promise<void>;
  importFiles(inputs: ImportInput[]): Promise<void>;
  /** Runs index jobs until the queue has none due; returns how many ran. */
  drain(max?: number): Promise<number>;
  /** A second service over the same databases (a reload, another tab). */
  reopen(overrides?: HarnessOptions): Promise<Harness>;
  close(): void;
}

/** Resolves once `check` holds (polling), or fails after `ms`. */
export async function waitUntil(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface HarnessOptions extends Partial<IndexServiceDeps> {
  host?: EmbedderHost;
  runner?: Partial<RunnerOptions>;
}

async function build(vault: Vault, cache: Harness['cache'], options: HarnessOptions): Promise<Harness> {
  const { runner: _runner, ...deps } = options;
  const service = new IndexService({ vault, cache, host: inProcessEmbedderHost(), rng: seededRng(5), saveEveryMs: 0, ...deps });
  await service.start();
  const runner = new JobRunner({
    jobs: vault.jobs,
    workerId: `index-${++counter}`,
    handlers: service.handlers(),
    rng: seededRng(9),
    ...options.runner,
  });
  const importFiles = async (inputs: ImportInput[]) => {
    await runImport(vault, inputs, { onPublished: queueIndexing(vault) });
  };
  return {
    vault,
    cache,
    service,
    runner,
    importFiles,
    importText: (name, text) => {
      const bytes = new TextEncoder().encode(text);
      return importFiles([{ name, size: bytes.length, bytes }]);
    },
    async drain(max = 50) {
      let ran = 0;
      let idle = 0;
      while (ran < max && idle < 300) {
        if ((await runner.runOnce()) === 'ran') {
          ran++;
          idle = 0;
          continue;
        }
        // Idle: done, unless a job waits out a retry backoff.
        const waiting = await vault.db.jobs.where('status').anyOf('pending', 'leased').count();
        if (waiting === 0) break;
        idle++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return ran;
    },
    reopen: (overrides = {}) => build(vault, cache, { ...options, ...overrides }),
    close: () => {
      vault.db.close();
      cache.close();
    },
  };
}

export async function indexHarness(options: HarnessOptions = {}): Promise<Harness> {
  const name = `index-${process.pid}-${++counter}-${Date.now()}`;
  const vault = await openVault(name);
  const cache = openIndexCache(`${name}-cache`);
  return build(vault, cache, options);
}

/** A test file's harnesses: the returned `fresh(...)` opens one; every one is closed after each test. */
export function harnessPool(): (options?: HarnessOptions) => Promise<Harness> {
  const open: Harness[] = [];
  afterEach(() => {
    for (const h of open.splice(0)) h.close();
  });
  return async (options) => {
    const h = await indexHarness(options);
    open.push(h);
    return h;
  };
}

/** Imports the four index fixtures (three chats and a Markdown document); does not drain the queue. */
export async function importFixtures(h: Harness): Promise<void> {
  for (const [name, text] of [
    ['maple.txt', MAPLE],
    ['moss.txt', MOSS],
    ['budget.txt', BUDGET],
    ['handbook.md', DOCUMENT],
  ] as const)
    await h.importText(name, text);
}
