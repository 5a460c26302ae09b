/**
 * The off-topic refusal gate: the 120 prompts of tests/fixtures/recall/off-topic-prompts.json asked of
 * each LoCoMo dev vault and of the chat-export vault through the app's read path (`engram eval
 * offtopic`, defaults) must be answered "the vault holds nothing on this" at no less than the committed
 * baseline's rate minus 0.01. The baseline is the JSON of `npm run -s engram -- eval offtopic --json`;
 * it changes only in a commit that says why (tests/fixtures/recall/README.md). The whole dev split runs
 * (about 30 s on a quiet machine). The 60 prompts of off-topic-named-prompts.json, which name a
 * speaker of each vault ("What is {person}'s blood type?"), are gated the same way against
 * offtopic-named-baseline.json (`eval offtopic --prompts ... --exports none --json`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvalOfftopic } from '../../../src/cli/recall/eval-offtopic-command';
import type { OfftopicReport } from '../../../src/lib/services/eval/offtopic';

// LoCoMo is licensed for non-commercial use: read it where it lives, never copy it into the repo.
const LOCOMO = resolve(process.cwd(), '../shared/data/locomo/locomo-dev.json');
const EXPORTS = resolve(process.cwd(), '../shared/data/exports');
const BASELINE = resolve(__dirname, '../../fixtures/recall/offtopic-baseline.json');
const NAMED_PROMPTS = resolve(__dirname, '../../fixtures/recall/off-topic-named-prompts.json');
const NAMED_BASELINE = resolve(__dirname, '../../fixtures/recall/offtopic-named-baseline.json');
const TOLERANCE = 0.01;
const missing = [LOCOMO, EXPORTS].filter((path) => !existsSync(path));
if (missing.length > 0) console.warn(`${missing.join(' and ')} not found: the off-topic refusal gate is skipped (CI has ../shared/data).`);

describe('off-topic refusal gate (LoCoMo dev and the export samples, the app path)', () => {
  it.skipIf(missing.length > 0)(
    'the refusal rate does not fall more than 0.01 below the committed baseline',
    async () => {
      const started = performance.now();
      const { json } = await runEvalOfftopic(['offtopic', LOCOMO, '--exports', EXPORTS]);
      const report = json as OfftopicReport;
      const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as OfftopicReport;
      const byVault = Object.entries(report.byVault).map(([name, v]) => `${name} ${(v.refusedRate * 100).toFixed(1)} %`);
      console.info(
        `off-topic refused ${(report.refusedRate * 100).toFixed(1)} % of ${report.asks} (baseline ${(baseline.refusedRate * 100).toFixed(1)} %): ${byVault.join(', ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      expect(Object.keys(report.byVault)).toEqual(Object.keys(baseline.byVault));
      expect(report.asks).toBe(baseline.asks);
      expect(report.refusedRate).toBeGreaterThanOrEqual(baseline.refusedRate - TOLERANCE);
    },
    300_000,
  );

  it.skipIf(missing.length > 0)(
    'the refusal rate of the prompts that name a speaker does not fall more than 0.01 below its baseline',
    async () => {
      const { json } = await runEvalOfftopic(['offtopic', LOCOMO, '--prompts', NAMED_PROMPTS, '--exports', 'none']);
      const report = json as OfftopicReport;
      const baseline = JSON.parse(readFileSync(NAMED_BASELINE, 'utf8')) as OfftopicReport;
      console.info(
        `named off-topic refused ${(report.refusedRate * 100).toFixed(1)} % of ${report.asks} (baseline ${(baseline.refusedRate * 100).toFixed(1)} %)`,
      );
      expect(Object.keys(report.byVault)).toEqual(Object.keys(baseline.byVault));
      expect(report.asks).toBe(baseline.asks);
      expect(report.refusedRate).toBeGreaterThanOrEqual(baseline.refusedRate - TOLERANCE);
    },
    300_000,
  );
});
