/**
 * The first-vaults refusal gate: `engram eval small --sizes 1,3` (vaults of one chat and of three,
 * one per chat the question and big-picture prompt sets name, asked those prompts through the app's
 * read path; every 10th vault also asked the 120 off-topic prompts). The share of on-topic prompts
 * refused must not rise more than 0.01 above the committed baseline, and the share of off-topic
 * prompts refused must not fall more than 0.01 below it, at either size. The baseline is the JSON of
 * `npm run -s engram -- eval small --sizes 1,3 --json`; it changes only in a commit that says why
 * (tests/fixtures/recall/README.md).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvalSmall } from '../../../src/cli/recall/eval-small-command';
import type { SmallVaultsReport } from '../../../src/lib/services/eval/small-vaults';

const BASELINE = resolve(__dirname, '../../fixtures/recall/small-baseline.json');
const TOLERANCE = 0.01;

describe('first-vaults refusal gate (vaults of one and three chats of the labelled corpus, the app path)', () => {
  it('on-topic refusals do not rise, off-topic refusals do not fall, more than 0.01 against the baseline', async () => {
    const started = performance.now();
    const report = (await runEvalSmall(['small', '--sizes', '1,3'])).json as SmallVaultsReport;
    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as SmallVaultsReport;
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    console.info(
      `first vaults: ${Object.entries(report.bySize)
        .map(([k, s]) => `${k} chat(s): on topic refused ${pct(s.onTopic.refusedRate)}, off topic refused ${pct(s.offTopic.refusedRate)}`)
        .join('; ')}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(Object.keys(report.bySize)).toEqual(Object.keys(baseline.bySize));
    for (const [size, s] of Object.entries(report.bySize)) {
      const base = baseline.bySize[size]!;
      expect(s.onTopic.asks).toBe(base.onTopic.asks);
      expect(s.offTopic.asks).toBe(base.offTopic.asks);
      // The lists behind the rates: every false refusal and every off-topic prompt answered.
      expect(s.falseRefusals).toHaveLength(s.onTopic.refused);
      expect(s.offTopicAnswered).toHaveLength(s.offTopic.asks - s.offTopic.refused);
      expect(s.onTopic.refusedRate, `on-topic refusals, vaults of ${size}`).toBeLessThanOrEqual(base.onTopic.refusedRate + TOLERANCE);
      expect(s.offTopic.refusedRate, `off-topic refusals, vaults of ${size}`).toBeGreaterThanOrEqual(base.offTopic.refusedRate - TOLERANCE);
    }
  }, 600_000);
});
