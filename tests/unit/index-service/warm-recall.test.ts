/**
 * A service that starts over a vault holding documents loads what the first recall would otherwise
 * load while the person waits (the token counter's table, IndexServiceDeps.warmRecall); over an
 * empty vault it loads nothing, and a failed load never fails the start.
 */
import { describe, expect, it, vi } from 'vitest';
import { harnessPool, importFixtures } from '../../factories/index-harness';

const fresh = harnessPool();

describe('IndexService.start warms recall', () => {
  it('loads the token counter at start when the vault holds documents, before any recall', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    expect(h.service.parts.catalog.size).toBeGreaterThan(0);
    const warmRecall = vi.fn(() => Promise.resolve());
    const reopened = await h.reopen({ warmRecall });
    expect(warmRecall).toHaveBeenCalledTimes(1);
    expect(reopened.service.parts.catalog.size).toBe(h.service.parts.catalog.size);
  });

  it('loads nothing over an empty vault', async () => {
    const warmRecall = vi.fn(() => Promise.resolve());
    const h = await fresh({ warmRecall });
    expect(h.service.parts.catalog.size).toBe(0);
    expect(warmRecall).not.toHaveBeenCalled();
  });

  it('starts, and answers, when the load fails (the first recall tries again)', async () => {
    const h = await fresh();
    await importFixtures(h);
    await h.drain();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const warmRecall = vi.fn(() => Promise.reject(new Error('offline before the chunk was cached')));
      const reopened = await h.reopen({ warmRecall });
      expect(warmRecall).toHaveBeenCalledTimes(1);
      expect((await reopened.service.lexicalSearch('maple', 3)).length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', unhandled);
    }
    expect(unhandled).not.toHaveBeenCalled();
  });
});
