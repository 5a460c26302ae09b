/**
 * The token counter (gpt-tokenizer's o200k_base table, about 0.95 MB gzip) loads on demand
 * (core/text/token-count.ts, docs/BUNDLE.md). Each test starts from fresh modules, as a page load
 * does, so nothing is loaded until a path that counts asks for it, or the index service starts over
 * a vault that holds documents (it loads the counter then, ahead of the first recall).
 */
import { describe, expect, it, vi } from 'vitest';
import { MAPLE, MOSS } from '../../factories/index-fixtures';

describe('the token counter loads on demand', () => {
  it('counts nothing before it is loaded, with a clear error, and counts after the load', async () => {
    vi.resetModules();
    const tc = await import('../../../src/lib/core/text/token-count');
    expect(tc.tokenCounterLoaded()).toBe(false);
    expect(() => tc.countTokens('How should I prune a Japanese maple?')).toThrow(/token counter is not loaded/u);
    expect(tc.countTokens('')).toBe(0);
    await Promise.all([tc.loadTokenCounter(), tc.loadTokenCounter()]);
    expect(tc.tokenCounterLoaded()).toBe(true);
    expect(tc.countTokens('How should I prune a Japanese maple?')).toBeGreaterThan(5);
  });

  /** A vault filled and indexed in modules of its own (chunking loads the counter there); its database name. */
  async function filledVault(): Promise<string> {
    vi.resetModules();
    const { indexHarness } = await import('../../factories/index-harness');
    const filled = await indexHarness();
    await filled.importText('maple.txt', MAPLE);
    await filled.importText('moss.txt', MOSS);
    await filled.drain();
    const name = filled.vault.db.name;
    filled.close();
    return name;
  }

  /** The app loaded again: fresh modules over the same databases, nothing loaded. */
  async function reload(name: string) {
    vi.resetModules();
    const tc = await import('../../../src/lib/core/text/token-count');
    const { openVault } = await import('../../../src/lib/store/vault');
    const { openIndexCache } = await import('../../../src/lib/store/vector-index-manifest');
    const { IndexService } = await import('../../../src/lib/services/index/index-service');
    const { inProcessEmbedderHost } = await import('../../../src/lib/services/index/in-process-host');
    const { RecallService } = await import('../../../src/lib/services/recall/recall-service');
    const vault = await openVault(name);
    const cache = openIndexCache(`${name}-cache`);
    return { tc, vault, cache, IndexService, inProcessEmbedderHost, RecallService };
  }

  it('the first recall after a reload over a filled vault loads it and answers when it comes before the start had loaded it', async () => {
    const { tc, vault, cache, IndexService, inProcessEmbedderHost, RecallService } = await reload(await filledVault());
    try {
      // A recall that arrives before the start's own load (IndexServiceDeps.warmRecall) has run.
      const service = new IndexService({
        vault,
        cache,
        host: inProcessEmbedderHost(),
        saveEveryMs: 0,
        warmRecall: () => Promise.resolve(),
      });
      await service.start();
      expect(service.recallSources().size()).toBeGreaterThan(0);
      expect(tc.tokenCounterLoaded()).toBe(false);

      const recall = new RecallService(service.recallSources(), vault);
      const answer = await recall.answer({ prompt: 'How do I prune a Japanese maple?' });
      if (!answer.ok) throw new Error(`the first recall failed: ${JSON.stringify(answer.error)}`);
      expect(answer.value.result.items.map((c) => c.record.text).join('\n')).toContain('Prune in late winter');
      expect(answer.value.package.tokens).toBeGreaterThan(0);
      expect(tc.tokenCounterLoaded()).toBe(true);
    } finally {
      vault.db.close();
      cache.close();
    }
  });

  it('the index service loads it at start over a filled vault, so the first recall does not wait for it; not over an empty one', async () => {
    const { tc, vault, cache, IndexService, inProcessEmbedderHost } = await reload(await filledVault());
    try {
      const service = new IndexService({ vault, cache, host: inProcessEmbedderHost(), saveEveryMs: 0 });
      await service.start();
      const until = Date.now() + 10_000;
      while (!tc.tokenCounterLoaded() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(tc.tokenCounterLoaded()).toBe(true);
    } finally {
      vault.db.close();
      cache.close();
    }
    const empty = await reload(`empty-${process.pid}-${Date.now()}`);
    try {
      const service = new empty.IndexService({
        vault: empty.vault,
        cache: empty.cache,
        host: empty.inProcessEmbedderHost(),
        saveEveryMs: 0,
      });
      await service.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(service.recallSources().size()).toBe(0);
      expect(empty.tc.tokenCounterLoaded()).toBe(false);
    } finally {
      empty.vault.db.close();
      empty.cache.close();
    }
  });
});
