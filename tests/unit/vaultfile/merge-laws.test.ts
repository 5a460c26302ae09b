import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { mergeVaults } from '../../../src/lib/core/vaultfile/merge';
import { runs, vaultStateArb } from '../../factories/vault-arbitrary';

/**
 * The merge laws, compared by canonical digest, over random vault states that share ids, clocks
 * and deletions (see vault-arbitrary.ts). 1,000 runs each; a failure prints the seed
 * (replay with FC_SEED=<seed>).
 */
describe('merge laws (fast-check, 1,000 runs each)', () => {
  it('commutative: merge(A, B) = merge(B, A)', async () => {
    await fc.assert(
      fc.asyncProperty(vaultStateArb, vaultStateArb, async (a, b) => {
        expect(await vaultDigest(await mergeVaults(a, b))).toBe(await vaultDigest(await mergeVaults(b, a)));
      }),
      runs(),
    );
  });

  it('idempotent: merge(A, A) = A', async () => {
    await fc.assert(
      fc.asyncProperty(vaultStateArb, async (a) => {
        expect(await vaultDigest(await mergeVaults(a, a))).toBe(await vaultDigest(a));
      }),
      runs(),
    );
  });

  it('associative: merge(merge(A, B), C) = merge(A, merge(B, C))', async () => {
    await fc.assert(
      fc.asyncProperty(vaultStateArb, vaultStateArb, vaultStateArb, async (a, b, c) => {
        const left = await mergeVaults(await mergeVaults(a, b), c);
        const right = await mergeVaults(a, await mergeVaults(b, c));
        expect(await vaultDigest(left)).toBe(await vaultDigest(right));
      }),
      runs(),
    );
  });

  it('merging a result again with any of its inputs changes nothing (re-importing the same file adds nothing)', async () => {
    await fc.assert(
      fc.asyncProperty(vaultStateArb, vaultStateArb, async (a, b) => {
        const merged = await mergeVaults(a, b);
        const digest = await vaultDigest(merged);
        expect(await vaultDigest(await mergeVaults(merged, b))).toBe(digest);
        expect(await vaultDigest(await mergeVaults(a, merged))).toBe(digest);
      }),
      // A consequence of the three laws above (1,000 runs each); checked directly on fewer runs.
      runs(300),
    );
  });

  it('the generator exercises the interesting cases (shared ids, conflicts, deletions)', async () => {
    const samples = fc.sample(fc.tuple(vaultStateArb, vaultStateArb), { numRuns: 300, seed: 7 });
    let conflicts = 0;
    let deletions = 0;
    for (const [a, b] of samples) {
      const merged = await mergeVaults(a, b);
      if (merged.history.some((h) => h.actor === 'merge')) conflicts++;
      if (merged.notes.length < new Set([...a.notes, ...b.notes].map((n) => n.id)).size) deletions++;
    }
    expect(conflicts).toBeGreaterThan(100);
    expect(deletions).toBeGreaterThan(30);
  });
});
