/**
 * The injection corpus (tests/fixtures/injection): detection >= 90 % over the attempts, false flags
 * <= 3 % over benign lines about prompts. Prints the figures, as `engram eval injection` does. The
 * held-out file was written after the patterns and never tuned against: its figure is printed
 * and checked against the same bars, as a guard against fitting the main corpus.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { productFlagsInjection } from '../../../src/cli/commands/eval-safety';
import { evalInjection, isInjectionCorpus } from '../../../src/lib/core/safety/eval/injection-eval';

const load = (name: string) => JSON.parse(readFileSync(`tests/fixtures/injection/${name}`, 'utf8')) as unknown;

describe('injection corpus', () => {
  for (const name of ['corpus.json', 'held-out.json']) {
    it(`${name}: detection >= 0.9 and false flags <= 0.03`, () => {
      const corpus = load(name);
      if (!isInjectionCorpus(corpus)) throw new Error(`${name} is not an injection corpus`);
      if (name === 'corpus.json') {
        expect(corpus.attacks.length).toBeGreaterThanOrEqual(100);
        expect(corpus.benign.length).toBeGreaterThanOrEqual(100);
      }
      const report = evalInjection(corpus, productFlagsInjection);
      console.log(
        `injection ${name}: detection ${report.detection} (${report.attacks}), falseFlagRate ${report.falseFlagRate} (${report.benign}), missed ${JSON.stringify(report.missedCases.map((c) => c.id))}, false flags ${JSON.stringify(report.falseFlags.map((c) => c.id))}`,
      );
      expect(report.detection).toBeGreaterThanOrEqual(0.9);
      expect(report.falseFlagRate).toBeLessThanOrEqual(0.03);
    });
  }
});
