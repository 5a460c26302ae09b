import { describe, expect, it } from 'vitest';
import { detectConflict } from '../../../src/lib/core/curate/contradiction';
import { calibrateThreshold, NEAR_DUPLICATE_THRESHOLD, termSimilarity } from '../../../src/lib/core/curate/similarity';
import { DUPLICATE_PAIRS } from './duplicate-pairs';

describe('contradiction rules', () => {
  it('finds a negation conflict on overlapping terms', () => {
    expect(detectConflict('The vault file is encrypted by default.', 'The vault file is not encrypted by default.')?.kind).toBe('negation');
    expect(detectConflict('We use WebGPU for embeddings.', "We don't use WebGPU for embeddings.")?.kind).toBe('negation');
  });

  it('finds an antonym conflict', () => {
    const conflict = detectConflict('Enable the service worker cache.', 'Disable the service worker cache.');
    expect(conflict).toMatchObject({ kind: 'antonym' });
    expect(conflict?.differing).toEqual(['enabl', 'disabl']);
  });

  it('finds a changed value', () => {
    expect(detectConflict('The token cap is 58000 tokens.', 'The token cap is 32000 tokens.')?.kind).toBe('value-change');
  });

  it('finds a swapped choice only when asked (decisions and constraints)', () => {
    expect(detectConflict('Use SQLite for vault storage.', 'Use Dexie for vault storage.')).toBeNull();
    expect(detectConflict('Use SQLite for vault storage.', 'Use Dexie for vault storage.', { slotSwap: true })?.kind).toBe('value-change');
  });

  it('sees no changed value or antonym between statements about different subjects', () => {
    expect(detectConflict('Caroline runs 5 km every Monday morning.', 'Melanie swims 10 km every Monday morning.')).toBeNull();
    expect(detectConflict('The garden server keeps local backups weekly.', 'The office laptop keeps remote backups weekly.')).toBeNull();
    expect(detectConflict('The garden server keeps local backups weekly.', 'The garden server keeps remote backups weekly.')?.kind).toBe(
      'antonym',
    );
    expect(detectConflict('Keep the budget under 41 euros.', 'Keep the budget under 50 euros.')?.kind).toBe('value-change');
  });

  it('sees a one-digit value change (content words drop one-character tokens; numbers are read from every token)', () => {
    expect(detectConflict('Keep the salt under 2 grams a day.', 'Keep the salt under 19 grams a day.')?.kind).toBe('value-change');
    expect(detectConflict('The cat eats 3 meals a day.', 'The cat eats 2 meals a day.')?.differing.sort()).toEqual(['2', '3']);
    expect(detectConflict('Caroline runs 5 km every Monday morning.', 'Melanie swims 8 km every Monday morning.')).toBeNull();
  });

  it('sees no conflict between unrelated statements, agreeing statements, or two negations', () => {
    expect(detectConflict('The maple is not pruned in summer.', 'Sourdough does not need yeast.')).toBeNull();
    expect(detectConflict('Prune maples in late winter.', 'Maples are pruned in late winter.')).toBeNull();
    expect(detectConflict('Never prune in summer.', 'Do not prune in summer.')).toBeNull();
  });
});

describe('near-duplicate similarity', () => {
  it('the default term threshold is the calibrated one on the labelled pairs', () => {
    const pairs = DUPLICATE_PAIRS.map((p) => ({ similarity: termSimilarity(p.a, p.b), duplicate: p.duplicate }));
    const calibration = calibrateThreshold(pairs);
    expect(calibration.threshold).toBeCloseTo(NEAR_DUPLICATE_THRESHOLD.terms, 5);
    // No false merge on the hard negatives; one paraphrase ("rebuilt" / "rebuilds") is missed.
    expect(calibration.precision).toBe(1);
    expect(calibration.recall).toBeCloseTo(11 / 12, 5);
  });

  it('calibration picks the best-F1 threshold and prefers the higher one on ties', () => {
    const result = calibrateThreshold([
      { similarity: 0.95, duplicate: true },
      { similarity: 0.9, duplicate: true },
      { similarity: 0.7, duplicate: false },
      { similarity: 0.6, duplicate: false },
    ]);
    expect(result).toEqual({ threshold: 0.9, f1: 1, precision: 1, recall: 1 });
  });
});
