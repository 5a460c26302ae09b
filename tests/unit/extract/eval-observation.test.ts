import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractConversation } from '../../../src/lib/core/extract/driver';
import { coveringUnit, evalObservationCoverage, requiredShared } from '../../../src/lib/core/extract/eval-observation';
import { locomoSessions, parseLocomoDate, type LocomoSession } from '../../../src/lib/core/extract/locomo';
import type { CandidateUnit } from '../../../src/lib/core/extract/units';

const LOCOMO = fileURLToPath(new URL('../../../../shared/data/locomo/locomo-dev.json', import.meta.url));
const names = new Set(['caroline', 'melanie']);
const unit = (text: string, ids: string[]): CandidateUnit => ({
  kind: 'fact',
  category: 'Facts',
  text,
  sourceMessageIds: ids,
  repairs: [],
});

describe('coverage rule', () => {
  it('needs max(2, a third) of the fact content words, all of them for tiny facts', () => {
    expect([1, 2, 3, 6, 7, 9, 12].map((n) => requiredShared(n))).toEqual([1, 2, 2, 2, 3, 3, 4]);
  });

  it('counts a fact covered only by a unit citing its turn with enough shared stems, speaker names ignored', () => {
    const gold = { text: 'Caroline attended an LGBTQ support group recently.', evidence: ['D1:3'] };
    expect(coveringUnit(gold, [unit('I went to a LGBTQ support group yesterday.', ['D1:3'])], names)).not.toBeNull();
    expect(coveringUnit(gold, [unit('I went to a LGBTQ support group yesterday.', ['D1:4'])], names)).toBeNull();
    expect(coveringUnit(gold, [unit('Caroline went swimming.', ['D1:3'])], names)).toBeNull();
  });

  it('reports coverage, pass rate, words per unit and categories over sessions', async () => {
    const session: LocomoSession = {
      id: 's/1',
      sampleId: 's',
      speakers: ['Caroline', 'Melanie'],
      date: parseLocomoDate('1:56 pm on 8 May, 2023'),
      messages: [
        { id: 'D1:1', role: 'user', text: 'I went to a LGBTQ support group yesterday and it was so powerful.', createdAt: null },
        { id: 'D1:2', role: 'user', text: 'Hey! Nice to see you!', createdAt: null },
      ],
      gold: [
        { text: 'Caroline attended an LGBTQ support group.', speaker: 'Caroline', evidence: ['D1:1'] },
        { text: 'Melanie is painting a sunrise.', speaker: 'Melanie', evidence: ['D1:2'] },
      ],
    };
    const report = await evalObservationCoverage([session], (s) => extractConversation(s.messages), 'rule-based');
    expect(report).toMatchObject({ extractor: 'rule-based', sessions: 1, goldFacts: 2, coveredFacts: 1, coverage: 0.5 });
    expect(report.validatorPassRate).toBeGreaterThan(0);
    expect(report.meanWordsPerUnit).toBeGreaterThan(0);
    expect(report.byCategory.Facts?.coveringUnits).toBe(1);
    expect(report.rule).toMatch(/max\(2, ceil/u);
  });

  it('parses LoCoMo dates', () => {
    expect(new Date(parseLocomoDate('1:56 pm on 8 May, 2023') ?? 0).toISOString()).toBe('2023-05-08T13:56:00.000Z');
    expect(parseLocomoDate('sometime')).toBeNull();
  });
});

const haveLocomo = existsSync(LOCOMO);
if (!haveLocomo) console.warn(`LoCoMo eval skipped: ${LOCOMO} is absent (it lives in ../shared/data/locomo, never in the project).`);

describe.skipIf(!haveLocomo)('LoCoMo observation eval (rule-based, ../shared/data/locomo/locomo-dev.json)', () => {
  it('runs over every session with observations and reports the figures', async () => {
    const { sessions, skippedSamples } = locomoSessions(JSON.parse(readFileSync(LOCOMO, 'utf8')));
    expect(skippedSamples).toBe(0);
    const report = await evalObservationCoverage(sessions, (s) => extractConversation(s.messages), 'rule-based');
    console.info(JSON.stringify(report));
    expect(report.sessions).toBe(sessions.length);
    expect(report.goldFacts).toBe(sessions.reduce((n, s) => n + s.gold.length, 0));
    expect(report.coverage).toBeGreaterThan(0);
    expect(report.coverage).toBeLessThanOrEqual(report.turnCeiling);
    expect(report.meanWordsPerUnit).toBeLessThanOrEqual(15);
  });
});
