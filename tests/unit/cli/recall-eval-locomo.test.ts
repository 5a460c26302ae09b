import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { EVAL_MODES } from '../../../src/lib/core/recall/eval-locomo';
import { normalizeEvidenceIds, parseLocomo } from '../../../src/lib/core/recall/locomo-data';
import { runLocomo } from '../../../src/lib/services/eval/locomo';
import { importSample } from '../../../src/lib/services/eval/locomo-vault';
import { syntheticSample } from '../../factories/recall-locomo';
import { allMessages } from '../../../src/lib/store/messages-store';

// LoCoMo is licensed for non-commercial use: read it where it lives, never copy it into the repo.
const LOCOMO = resolve(process.cwd(), '../shared/data/locomo/locomo-dev.json');
const haveLocomo = existsSync(LOCOMO);
if (!haveLocomo) console.warn(`LoCoMo not found at ${LOCOMO}: the runs on the real data are skipped.`);

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

/** The JSON shape of the issue, exactly: keys in order, every mode, every k and budget, latency. */
function expectReportShape(report: Record<string, unknown>, ks: string[], budgets: string[]) {
  expect(Object.keys(report)).toEqual(['embedder', 'questions', 'modes', 'unanswerable']);
  expect(report.embedder).toBe('lexical-v1-384');
  const modes = report.modes as Record<string, Record<string, Record<string, unknown>>>;
  expect(Object.keys(modes)).toEqual([...EVAL_MODES]);
  for (const mode of Object.values(modes)) {
    expect(Object.keys(mode)).toEqual([
      'recallAtK',
      'recallAtBudget',
      'byCategory',
      'latencyMs',
      'packagePrecision',
      'meanPackageTokens',
      'refusedRate',
    ]);
    for (const share of [mode.packagePrecision, mode.refusedRate] as unknown as number[]) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    expect(mode.meanPackageTokens as unknown as number).toBeGreaterThan(0);
    expect(Object.keys(mode.recallAtK!)).toEqual(ks);
    expect(Object.keys(mode.recallAtBudget!)).toEqual(budgets);
    expect(Object.keys(mode.latencyMs!)).toEqual(['p50', 'p95']);
    for (const c of Object.values(mode.byCategory as Record<string, Record<string, Record<string, number>>>)) {
      expect(Object.keys(c)).toEqual(['questions', 'recallAtK', 'recallAtBudget']);
      for (const v of [...Object.values(c.recallAtK!), ...Object.values(c.recallAtBudget!)]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    }
  }
  expect(Object.keys(report.unanswerable as object)).toEqual(['holdsNothingRate', 'falseRefusalRate']);
}

describe('LoCoMo through the importer', () => {
  it('stores one dated conversation per session, every turn a message that remembers its dia_id', async () => {
    const parsed = parseLocomo([syntheticSample()]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const sample = await importSample(parsed.value[0]!);
    try {
      expect(sample.report.totals.conversations.stored).toBe(2);
      expect([...sample.diaIdOf.values()].sort()).toEqual(['D1:1', 'D1:2', 'D1:3', 'D2:1', 'D2:2']);
      const conversations = await sample.vault.conversations.listVisible();
      expect(conversations.map((c) => c.createdAt).sort()).toEqual([Date.UTC(2023, 4, 8, 13, 56), Date.UTC(2023, 5, 20, 9, 0)]);
      // Each turn keeps its named speaker, as a named transcript does.
      const messages = await allMessages(sample.vault.db);
      const comet = messages.find((m) => m.text.startsWith('I adopted a greyhound'))!;
      expect(comet).toMatchObject({ speaker: 'Ana', role: 'user' });
      expect(sample.diaIdOf.get(comet.id)).toBe('D1:1');
      expect(messages.find((m) => m.text.startsWith('Congrats'))).toMatchObject({ speaker: 'Ben', role: 'assistant' });
    } finally {
      await sample.vault.db.delete();
    }
  });
});

describe('engram eval locomo', () => {
  it('prints the report in the JSON shape of the issue', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-locomo-'));
    const file = join(dir, 'synthetic.json');
    await writeFile(file, JSON.stringify([syntheticSample()]));
    const { io, out } = capture();
    expect(await main(['eval', 'locomo', file, '--k', '1,5', '--budget', '100', '--json'], io)).toBe(0);
    const report = JSON.parse(out[0]!) as Record<string, unknown>;
    expectReportShape(report, ['1', '5'], ['100']);
    expect(report.questions).toBe(4);

    const text = capture();
    expect(await main(['eval', 'locomo', file], text.io)).toBe(0);
    expect(text.out[0]).toMatch(/LoCoMo evidence recall, 4 answerable questions/);
    expect(text.out[0]).toMatch(/unreadable evidence ids: "D"/);
    expect(text.out[0]).not.toMatch(/By sample/);
  });

  it('--by-sample adds the figures per sample, which add up to the totals', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-locomo-'));
    const file = join(dir, 'synthetic.json');
    const first = syntheticSample();
    await writeFile(file, JSON.stringify([first, { ...first, sample_id: 'second' }]));
    const { io, out } = capture();
    expect(await main(['eval', 'locomo', file, '--modes', 'bm25,funnel', '--by-sample', '--json'], io)).toBe(0);
    const report = JSON.parse(out[0]!) as {
      questions: number;
      modes: Record<string, { recallAtK: Record<string, number> }>;
      bySample: Record<string, { questions: number; modes: Record<string, { recallAtK: Record<string, number> }>; unanswerable: object }>;
    };
    expect(Object.keys(report.bySample)).toEqual([first.sample_id, 'second']);
    const samples = Object.values(report.bySample);
    expect(samples.reduce((sum, f) => sum + f.questions, 0)).toBe(report.questions);
    for (const mode of ['bm25', 'funnel']) {
      // Equal question counts: the total is the mean of the samples' figures.
      const mean = samples.reduce((sum, f) => sum + f.modes[mode]!.recallAtK['10']!, 0) / samples.length;
      expect(mean).toBeCloseTo(report.modes[mode]!.recallAtK['10']!, 3);
    }
    expect(Object.keys(samples[0]!.unanswerable)).toEqual(['questions', 'holdsNothingRate', 'falseRefusalRate']);
    const text = capture();
    expect(await main(['eval', 'locomo', file, '--modes', 'funnel', '--by-sample'], text.io)).toBe(0);
    expect(text.out[0]).toMatch(/By sample/);
    expect(text.out[0]).toMatch(/second +funnel +@5 /);
  });

  it('refuses bad options with usage errors', async () => {
    for (const argv of [
      ['eval', 'locomo'],
      ['eval', 'locomo', 'x.json', '--k', 'ten'],
      ['eval', 'locomo', 'x.json', '--modes', 'bm25,magic'],
      ['eval', 'locomo', 'x.json', '--vectors', 'faiss'],
      ['eval', 'locomo', 'x.json', '--bogus'],
    ]) {
      const { io, err } = capture();
      expect(await main(argv, io)).toBe(2);
      expect(err.join('\n')).toMatch(/Usage: npm run engram -- eval/);
    }
  });

  it.skipIf(!haveLocomo)('normalizes the malformed evidence ids of the real file', () => {
    const samples = JSON.parse(readFileSync(LOCOMO, 'utf8')) as { qa: { evidence?: string[] }[] }[];
    const raw = samples.flatMap((s) => s.qa.flatMap((q) => q.evidence ?? []));
    const odd = [...new Set(raw.filter((e) => !/^D\d+:[1-9]\d*$/u.test(e)))].sort();
    // The forms the dataset card names, seen in this file, and how each reads.
    expect(odd).toEqual(expect.arrayContaining(['D', 'D8:6; D9:17']));
    for (const entry of odd) {
      const { ids, malformed } = normalizeEvidenceIds([entry]);
      if (entry === 'D') expect(malformed).toEqual(['D']);
      else expect(ids.every((id) => /^D\d+:[1-9]\d*$/u.test(id)) && ids.length > 0).toBe(true);
    }
  });

  it('measures the app path on a small sample: every answer found, and the report says what ran', async () => {
    const parsed = parseLocomo([syntheticSample()]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { report, diagnostics, vectors } = await runLocomo(parsed.value);
    expectReportShape(report as unknown as Record<string, unknown>, ['5', '10'], ['500', '1000']);
    expect(vectors).toBe('hnsw');
    expect(report.questions).toBe(4);
    // Five turns in all: every mode finds every answer within its first 5 items.
    for (const mode of Object.values(report.modes)) expect(mode!.recallAtK['5']).toBe(1);
    expect(diagnostics).toMatchObject({
      samples: 1,
      skippedQuestions: 1,
      malformedEvidence: ['D'],
      unknownEvidence: [],
      unanswerableQuestions: 1,
    });
    expect(diagnostics.floorObservations.some((o) => o.evidence)).toBe(true);
  });
});
