/**
 * The LoCoMo regression gate: the dev split through the app's read path (`engram eval locomo`,
 * defaults) must not fall more than 0.01 below the committed baseline in any mode, at 10 items or
 * 1,000 tokens, in total or in any category. The baseline is the JSON of
 * `npm run -s engram -- eval locomo ../shared/data/locomo/locomo-dev.json --json`; it changes only
 * in a commit that says why (tests/fixtures/recall/README.md). A second baseline guards the funnel
 * with the extraction run first, as in the app (its units' triples feed the triple list):
 * `... --modes funnel --extract --json`. Both also guard the refusals: the share of category-5
 * questions answered "the vault holds nothing on this" must not fall, nor the share of answerable
 * questions refused rise, by more than 0.01.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocomoReport, ModeReport } from '../../../src/lib/core/recall/eval-locomo';
import { parseLocomo } from '../../../src/lib/core/recall/locomo-data';
import { runLocomo } from '../../../src/lib/services/eval/locomo';

// LoCoMo is licensed for non-commercial use: read it where it lives, never copy it into the repo.
const LOCOMO = resolve(process.cwd(), '../shared/data/locomo/locomo-dev.json');
const BASELINE = resolve(__dirname, '../../fixtures/recall/locomo-baseline.json');
const EXTRACT_BASELINE = resolve(__dirname, '../../fixtures/recall/locomo-extract-baseline.json');
const TOLERANCE = 0.01;
const haveLocomo = existsSync(LOCOMO);
if (!haveLocomo) console.warn(`LoCoMo not found at ${LOCOMO}: the regression gate is skipped (CI has ../shared/data).`);

/** Every figure the gate guards, by name: "<mode> @10", "<mode> 1000tk", "<mode> cat N @10", ... */
export function guarded(report: LocomoReport): Map<string, number> {
  const out = new Map<string, number>();
  const add = (name: string, m: Pick<ModeReport, 'recallAtK' | 'recallAtBudget'>) => {
    out.set(`${name} @10`, m.recallAtK['10']!);
    out.set(`${name} 1000tk`, m.recallAtBudget['1000']!);
  };
  for (const [mode, m] of Object.entries(report.modes)) {
    add(mode, m!);
    for (const [category, c] of Object.entries(m!.byCategory)) add(`${mode} cat ${category}`, c);
  }
  return out;
}

describe('LoCoMo regression gate (dev split, the app path)', () => {
  it.skipIf(!haveLocomo)(
    'no mode, budget or category falls more than 0.01 below the committed baseline',
    async () => {
      const parsed = parseLocomo(JSON.parse(readFileSync(LOCOMO, 'utf8')));
      if (!parsed.ok) throw new Error(parsed.error.message);
      const { report, diagnostics } = await runLocomo(parsed.value);
      console.info('LoCoMo dev, app path:', JSON.stringify(report));
      expect(diagnostics.malformedEvidence).toEqual(['D']);
      expectNotBelow(report, BASELINE, 20);
    },
    900_000,
  );

  it.skipIf(!haveLocomo)(
    'with the extraction run first (the triple list reads its units), the funnel falls nowhere more than 0.01 below its baseline',
    async () => {
      const parsed = parseLocomo(JSON.parse(readFileSync(LOCOMO, 'utf8')));
      if (!parsed.ok) throw new Error(parsed.error.message);
      const { report } = await runLocomo(parsed.value, { modes: ['funnel'], extract: true });
      console.info('LoCoMo dev, app path, extracted:', JSON.stringify(report));
      expectNotBelow(report, EXTRACT_BASELINE, 8);
    },
    900_000,
  );
});

function expectNotBelow(report: LocomoReport, file: string, atLeast: number): void {
  const baseline = guarded(JSON.parse(readFileSync(file, 'utf8')) as LocomoReport);
  const now = guarded(report);
  expect(baseline.size).toBeGreaterThan(atLeast);
  const fallen = [...baseline].filter(([name, value]) => (now.get(name) ?? -1) < value - TOLERANCE);
  expect(fallen.map(([name, value]) => `${name}: ${now.get(name)?.toFixed(3) ?? 'missing'} < baseline ${value.toFixed(3)}`)).toEqual([]);
  const refusals = (JSON.parse(readFileSync(file, 'utf8')) as LocomoReport).unanswerable;
  expect(report.unanswerable.holdsNothingRate).toBeGreaterThanOrEqual(refusals.holdsNothingRate - TOLERANCE);
  expect(report.unanswerable.falseRefusalRate).toBeLessThanOrEqual(refusals.falseRefusalRate + TOLERANCE);
}
