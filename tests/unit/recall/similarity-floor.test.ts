import { describe, expect, it } from 'vitest';
import { calibrateFloor } from '../../../src/lib/core/recall/floor-calibration';
import { applyFloor, floorFor, LEXICAL_FLOOR, NEURAL_FLOOR } from '../../../src/lib/core/recall/similarity-floor';
import { scored } from '../../factories/recall';

describe('similarity floor', () => {
  it('takes the value from the per-embedder calibration table', () => {
    expect(floorFor({ id: 'transformers:Xenova/all-MiniLM-L6-v2:q8', kind: 'neural' }).value).toBe(NEURAL_FLOOR);
    expect(floorFor({ id: 'lexical-v1-384', kind: 'lexical' }).value).toBe(LEXICAL_FLOOR);
    expect(floorFor({ id: 'lexical-v1-384', kind: 'lexical' }).derivation).toContain('calibrateFloor');
    expect(floorFor({ id: 'other', kind: 'neural' })).toMatchObject({
      value: NEURAL_FLOOR,
      derivation: expect.stringContaining('no entry'),
    });
    expect(floorFor({ id: 'lexical-v1-384', kind: 'lexical' }, 0.3)).toMatchObject({ value: 0.3, derivation: 'explicit override' });
  });

  it('drops what lies below the floor with the reason, keeps what has no vector yet', () => {
    const { kept, dropped } = applyFloor(
      [
        scored({ id: 'high' }, 1, { vectorSimilarity: 0.5 }),
        scored({ id: 'low' }, 1, { vectorSimilarity: 0.1 }),
        scored({ id: 'at' }, 1, { vectorSimilarity: 0.4 }),
        scored({ id: 'unembedded' }, 1, { vectorSimilarity: null }),
      ],
      0.4,
    );
    expect(kept.map((c) => c.record.id)).toEqual(['high', 'at', 'unembedded']);
    expect(dropped).toEqual([{ candidate: expect.anything(), stage: 'floor', reason: 'similarity 0.100 is below the floor 0.400' }]);
  });
});

describe('floor calibration', () => {
  it('picks the highest floor that keeps the target share of the evidence', () => {
    const evidence = [0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05].map((similarity) => ({ similarity, evidence: true }));
    const noise = [0.02, 0.04, 0.06, 0.3].map((similarity) => ({ similarity, evidence: false }));
    const result = calibrateFloor([...evidence, ...noise], { targetEvidenceKept: 0.9 });
    expect(result.floor).toBe(0.1);
    expect(result.evidenceKept).toBe(0.9);
    expect(result.noiseDropped).toBe(0.75);
    expect(result).toMatchObject({ evidenceCount: 10, noiseCount: 4 });
  });

  it('is 0 when the evidence leaves no room', () => {
    expect(calibrateFloor([{ similarity: 0, evidence: true }]).floor).toBe(0);
    expect(calibrateFloor([]).floor).toBe(1);
  });
});
