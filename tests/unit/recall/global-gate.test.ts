/**
 * The GLOBAL view's gate: the 100 big-picture prompts of tests/fixtures/recall/global-prompts.json
 * about chats of the labelled extraction corpus, asked through the app's read path (`engram eval
 * global`, defaults) with the GLOBAL view's stages (structural items, session focus) off and on. With
 * them on, the share of package items drawn from the prompt's chat must stay at least the share with
 * them off, and neither it, the share of asks whose package holds the chat, nor the share of
 * structural items drawn from the chat may fall more than the tolerance below the committed baseline (the JSON of `npm run -s engram -- eval global
 * --json`; it changes only in a commit that says why). About 15 s on a quiet machine.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvalGlobal } from '../../../src/cli/recall/eval-global-command';
import type { GlobalReport } from '../../../src/lib/services/eval/global-view';

const BASELINE = resolve(__dirname, '../../fixtures/recall/global-baseline.json');
const TOLERANCE = 0.01;
/** Structural items are fewer than one per ask: one item moves their on-target share by about 1.5 points. */
const STRUCTURAL_TOLERANCE = 0.05;

describe('GLOBAL view gate (big-picture prompts over the labelled corpus, the app path)', () => {
  it("the GLOBAL view's stages raise the share of the package drawn from the prompt's chat, and hold the baseline", async () => {
    const { json } = await runEvalGlobal(['global']);
    const report = json as GlobalReport;
    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as GlobalReport;
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    console.info(
      `GLOBAL view: from the chat ${pct(report.off.conversationPrecision)} off, ${pct(report.on.conversationPrecision)} on (baseline ${pct(baseline.on.conversationPrecision)}); structural ${report.on.structuralPerAsk.toFixed(2)} per ask, ${pct(report.on.structuralOnTarget)} on target`,
    );
    expect(report.prompts).toBe(baseline.prompts);
    expect(report.on.structuralPerAsk).toBeGreaterThan(0);
    expect(report.on.conversationPrecision).toBeGreaterThanOrEqual(report.off.conversationPrecision);
    expect(report.on.conversationPrecision).toBeGreaterThanOrEqual(baseline.on.conversationPrecision - TOLERANCE);
    expect(report.on.targetInPackage).toBeGreaterThanOrEqual(baseline.on.targetInPackage - TOLERANCE);
    expect(report.on.structuralOnTarget).toBeGreaterThanOrEqual(baseline.on.structuralOnTarget - STRUCTURAL_TOLERANCE);
  }, 300_000);
});
