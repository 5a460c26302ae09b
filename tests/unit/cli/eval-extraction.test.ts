import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { runCli } from '../../factories/cli';

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

  it('scores the labelled corpus per category and per split with --labelled', async () => {
    const { code, out } = await runCli(['eval', 'extraction', '--labelled', 'tests/fixtures/extraction', '--json']);
    expect(code).toBe(0);
    type Split = {
      goldUnits: number;
      turns: number;
      conversations: number;
      macroF1: number;
      decisionsCitingAssistant: number;
      byCategory: Record<string, { gold: number; precision: number; recall: number; f1: number }>;
    };
    const report = JSON.parse(out) as Split & { splits: Record<string, Split> };
    expect(report.turns).toBeGreaterThanOrEqual(300);
    expect(Object.keys(report.byCategory)).toHaveLength(8);
    expect(Object.keys(report.splits).sort()).toEqual(['heldout', 'train']);
    const { train, heldout } = report.splits as { train: Split; heldout: Split };
    expect(Object.values(report.splits).reduce((n, s) => n + s.goldUnits, 0)).toBe(report.goldUnits);
    expect(heldout.conversations / report.conversations).toBeGreaterThanOrEqual(0.25);
    for (const s of Object.values(report.byCategory)) expect(s.gold).toBeGreaterThan(0);
    // Regression guards at the figures docs/EXTRACT.md reports (rounded down), not targets.
    expect(report.decisionsCitingAssistant).toBe(0);
    // Rounds 5 to 7 added 60 conversations by ten more authors (tests/fixtures/extraction/README.md):
    // the corpus is harder, so these floors are lower than round 4's, while the rules improved on
    // the round-4 corpus (train 0.852 -> 0.857, held-out 0.759 -> 0.776).
    expect(train.byCategory.Decisions!.recall).toBeGreaterThanOrEqual(0.77);
    expect(train.byCategory.Decisions!.precision).toBeGreaterThanOrEqual(0.76);
    expect(train.macroF1).toBeGreaterThanOrEqual(0.77);
    expect(heldout.macroF1).toBeGreaterThanOrEqual(0.71);
    expect(heldout.byCategory.Decisions!.recall).toBeGreaterThanOrEqual(0.72);
    expect(heldout.byCategory.Decisions!.precision).toBeGreaterThanOrEqual(0.68);
  });

  it('says which labelled file is malformed, and refuses a folder that does not exist', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'labelled-'));
    await mkdir(join(dir, 'train'));
    await writeFile(
      join(dir, 'train', 'a.json'),
      JSON.stringify({ id: 'a', title: 'a', turns: [{ id: 't1', role: 'bot', text: 'x', units: [] }] }),
    );
    const bad = await runCli(['eval', 'extraction', '--labelled', dir]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/train\/a\.json: turns\.0\.role/);
    const missing = await runCli(['eval', 'extraction', '--labelled', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/is not a folder of labelled conversations/);
  });

  it('lists per-unit errors of every split but the held-out one, unless --errors-heldout asks for it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'labelled-'));
    const conversation = (id: string) => ({
      id,
      title: id,
      turns: [
        {
          id: 't1',
          role: 'user',
          text: 'We picked the blue tent. The lake is cold in May.',
          // Labels the rules will not reproduce word for word: each split has errors to list.
          units: [{ category: 'Ideas', text: `A ${id} idea nobody wrote in the turn.` }],
        },
      ],
    });
    for (const split of ['train', 'heldout']) {
      await mkdir(join(dir, split));
      await writeFile(join(dir, split, `${split}-chat.json`), JSON.stringify(conversation(`${split}-chat`)));
    }
    type Report = { errors: { split: string; conversation: string }[]; errorsLeftOut?: string[] };
    const safe = await runCli(['eval', 'extraction', '--labelled', dir, '--errors', '--json']);
    expect(safe.code).toBe(0);
    const withheld = JSON.parse(safe.out) as Report;
    expect(withheld.errors.length).toBeGreaterThan(0);
    expect(new Set(withheld.errors.map((e) => e.split))).toEqual(new Set(['train']));
    expect(withheld.errorsLeftOut).toEqual(['heldout']);
    const text = await runCli(['eval', 'extraction', '--labelled', dir, '--errors']);
    expect(text.out).toMatch(/Per-unit errors of the heldout split are left out \(--errors-heldout lists them\)/);
    expect(text.out).not.toMatch(/heldout-chat\/t1/);
    const all = JSON.parse(
      (await runCli(['eval', 'extraction', '--labelled', dir, '--errors', '--errors-heldout', '--json'])).out,
    ) as Report;
    expect(new Set(all.errors.map((e) => e.split))).toEqual(new Set(['train', 'heldout']));
    expect(all.errorsLeftOut).toBeUndefined();
  });
});
