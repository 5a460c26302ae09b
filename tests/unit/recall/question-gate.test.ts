/**
 * The hints' gate: the 100 questions of tests/fixtures/recall/question-prompts.json, each about one
 * thing a person settled in a chat of the labelled extraction corpus, asked through the app's read
 * path (`engram eval questions`, defaults) with the hints off and on. With them on, the share of asks
 * whose package holds the answer's turn must stay at least the share with them off, and neither it nor
 * the mean reciprocal rank may fall more than the tolerance below the committed baseline (the JSON of
 * `npm run -s engram -- eval questions --json`; it changes only in a commit that says why). About 15 s.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvalQuestions } from '../../../src/cli/recall/eval-questions-command';
import type { QuestionReport } from '../../../src/lib/services/eval/question-eval';

const BASELINE = resolve(__dirname, '../../fixtures/recall/question-baseline.json');
const TOLERANCE = 0.01;

describe('hints gate (questions about one settled thing, the labelled corpus, the app path)', () => {
  it("the hints keep the answer's turn in the package at least as often as without them, and hold the baseline", async () => {
    const { json } = await runEvalQuestions(['questions']);
    const report = json as QuestionReport;
    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as QuestionReport;
    console.info(
      `Hints: answer in the package ${report.off.inPackage} off, ${report.on.inPackage} on (baseline ${baseline.on.inPackage}); MRR ${report.off.mrr.toFixed(3)} off, ${report.on.mrr.toFixed(3)} on`,
    );
    expect(report.prompts).toBe(baseline.prompts);
    expect(report.on.inPackage).toBeGreaterThanOrEqual(report.off.inPackage);
    expect(report.on.inPackage).toBeGreaterThanOrEqual(baseline.on.inPackage - TOLERANCE);
    expect(report.on.mrr).toBeGreaterThanOrEqual(baseline.on.mrr - TOLERANCE);
  }, 300_000);
});
