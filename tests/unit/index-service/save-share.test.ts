import { afterEach, describe, expect, it } from 'vitest';
import { persist, persistIfDue } from '../../../src/lib/services/index/embedding';
import { inProcessEmbedderHost } from '../../../src/lib/services/index/in-process-host';
import { IndexParts, SAVE_SHARE } from '../../../src/lib/services/index/index-parts';
import { openIndexCache } from '../../../src/lib/store/vector-index-manifest';
import { openVault, type Vault } from '../../../src/lib/store/vault';

const open: { vault: Vault; cache: ReturnType<typeof openIndexCache> }[] = [];
afterEach(() => {
  for (const { vault, cache } of open.splice(0)) {
    vault.db.close();
    cache.close();
  }
});

/** Index parts on a fake clock whose keyword-index save takes `saveMs` of it. */
async function partsWithClock(saveEveryMs: number, saveMs: number) {
  const name = `save-share-${process.pid}-${open.length}-${Date.now()}`;
  const vault = await openVault(name);
  const cache = openIndexCache(`${name}-cache`);
  open.push({ vault, cache });
  const clock = { t: 1_000_000, saves: 0 };
  const parts = new IndexParts({ vault, cache, host: inProcessEmbedderHost(), now: () => clock.t, saveEveryMs });
  parts.bm25.saveIfDirty = async () => {
    clock.t += saveMs;
    clock.saves++;
    return true;
  };
  return { parts, clock };
}

describe('saves during long work', () => {
  it('wait saveEveryMs after a quick save', async () => {
    const { parts, clock } = await partsWithClock(60_000, 100);
    await persist(parts);
    clock.t += 59_999;
    await persistIfDue(parts);
    expect(clock.saves).toBe(1);
    clock.t += 1;
    await persistIfDue(parts);
    expect(clock.saves).toBe(2);
  });

  it('take at most one part in SAVE_SHARE of the time when a save is slow', async () => {
    // A save of 20 s (a large vault) must not recur every 60 s: the next waits 9 x 20 s = 180 s.
    const { parts, clock } = await partsWithClock(60_000, 20_000);
    const start = clock.t;
    await persist(parts);
    clock.t += 60_000;
    await persistIfDue(parts);
    expect(clock.saves).toBe(1);
    clock.t += (SAVE_SHARE - 1) * 20_000 - 60_000;
    await persistIfDue(parts);
    expect(clock.saves).toBe(2);
    // Work ticking every second for an hour: saves stay within their share.
    const hour = clock.t + 3_600_000;
    while (clock.t < hour) {
      clock.t += 1000;
      await persistIfDue(parts);
    }
    const saving = clock.saves * 20_000;
    expect(saving / (clock.t - start)).toBeLessThanOrEqual(1 / SAVE_SHARE + 0.01);
    expect(clock.saves).toBeGreaterThan(2);
  });
});
