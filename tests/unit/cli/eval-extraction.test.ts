import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';

const LOCOMO = '../shared/data/locomo/locomo-dev.json';

describe('engram eval extraction', () => {
  it.skipIf(!existsSync(LOCOMO))(`reports coverage of LoCoMo observations as JSON (needs ${LOCOMO})`, async () => {
    const out: string[] = [];
    const code = await main(['eval', 'extraction', LOCOMO, '--json'], { out: (t) => out.push(t), err: () => undefined });
    expect(code).toBe(0);
    const report = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(report).toMatchObject({ extractor: 'rule-based', sessions: expect.any(Number), goldFacts: expect.any(Number) });
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['coverage', 'validatorPassRate', 'meanWordsPerUnit', 'byCategory']));
    expect(report.goldFacts as number).toBeGreaterThan(1000);
    expect(report.coverage as number).toBeGreaterThan(0.5);
    expect(report.meanWordsPerUnit as number).toBeLessThanOrEqual(15);
  });

  it('refuses an unknown evaluation with a usage error', async () => {
    const err: string[] = [];
    expect(await main(['eval', 'vibes', 'x.json'], { out: () => undefined, err: (t) => err.push(t) })).toBe(2);
    expect(err.join('\n')).toMatch(/Unknown evaluation "vibes"/);
  });
});
