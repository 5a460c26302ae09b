/**
 * The redaction corpus (tests/fixtures/secrets): recall >= 99 % over the fake secrets, false
 * positives <= 1 % over the look-alikes. Prints the figures, as `engram eval secrets` does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { productRedact } from '../../../src/cli/commands/eval-safety';
import { evalSecrets, isSecretsCorpus } from '../../../src/lib/core/safety/eval/secrets-eval';

const corpus = JSON.parse(readFileSync('tests/fixtures/secrets/corpus.json', 'utf8')) as unknown;

describe('secrets corpus', () => {
  it('holds >= 150 secrets over >= 40 kinds and >= 150 look-alikes', () => {
    expect(isSecretsCorpus(corpus)).toBe(true);
    if (!isSecretsCorpus(corpus)) return;
    expect(corpus.secrets.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.secrets.map((c) => c.kind)).size).toBeGreaterThanOrEqual(40);
    expect(corpus.benign.length).toBeGreaterThanOrEqual(150);
  });

  it('recall >= 0.99 and false positives <= 0.01 with the product redactor', () => {
    if (!isSecretsCorpus(corpus)) throw new Error('not a corpus');
    const report = evalSecrets(corpus, productRedact, 'engram');
    console.log(
      `secrets: recall ${report.recall} (${report.cases} cases), falsePositiveRate ${report.falsePositiveRate} (${report.benign} look-alikes), missed ${JSON.stringify(report.missedCases)}, false positives ${JSON.stringify(report.falsePositives.map((f) => f.id))}`,
    );
    expect(report.recall).toBeGreaterThanOrEqual(0.99);
    expect(report.falsePositiveRate).toBeLessThanOrEqual(0.01);
  });
});
