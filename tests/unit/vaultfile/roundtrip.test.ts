import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { readVaultState, writeVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { runs, textUnit, vaultStateArb } from '../../factories/vault-arbitrary';
import { collectBytes, sampleMeta, streamOf } from '../../factories/vault-state';

describe('export then import (fast-check, 1,000 runs)', () => {
  it('reproduces the canonical digest of any vault state, whatever the stream chunking', async () => {
    await fc.assert(
      fc.asyncProperty(vaultStateArb, fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 4 }), async (state, pieces) => {
        const bytes = await collectBytes(writeVaultState(sampleMeta(), state));
        const { state: back } = await readVaultState(streamOf(bytes, pieces));
        expect(await vaultDigest(back)).toBe(await vaultDigest(state));
      }),
      runs(),
    );
  });

  it('the generated text really contains CJK, emoji, RTL and lone surrogates', () => {
    const units = fc.sample(textUnit, { numRuns: 2_000, seed: 1 });
    expect(units.some((u) => /[\u4e00-\u9fff]/u.test(u))).toBe(true);
    expect(units.some((u) => /\p{Extended_Pictographic}/u.test(u))).toBe(true);
    expect(units.some((u) => /[\u0590-\u06ff]/u.test(u))).toBe(true);
    expect(units.some((u) => u.length === 1 && /\p{Cs}/u.test(u))).toBe(true);
  });
});
