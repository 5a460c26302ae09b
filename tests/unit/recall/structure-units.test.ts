import { describe, expect, it } from 'vitest';
import { assignBudgetTier, assemblePackage } from '../../../src/lib/core/recall/budget';
import { firstLevel } from '../../../src/lib/core/recall/first-level';
import { Bm25Index } from '../../../src/lib/core/index/bm25';
import {
  communityUnit,
  StructureIndex,
  summaryUnit,
  threadMapUnit,
  type SourceConversation,
} from '../../../src/lib/core/recall/structure-units';
import { DEFAULT_STRUCTURE, withStructure, type StructureStageInput } from '../../../src/lib/core/recall/structure-stage';
import { DEFAULT_RELEVANCE, termCoverage, unitCoverage } from '../../../src/lib/core/recall/term-coverage';
import type { StoredThreadMap } from '../../../src/lib/core/records';
import { fakeSanitize, NOW, DAY, scored } from '../../factories/recall';

const trip: SourceConversation = { id: 'c-trip', title: 'Lisbon trip', date: NOW - 10 * DAY };
const trip2: SourceConversation = { id: 'c-trip-2', title: 'Lisbon trip, week two', date: NOW - 3 * DAY };

const summary = summaryUnit(
  { conversationId: 'c-trip', text: 'We will stay in Alfama, not Baixa. Day three is Cascais by train; Sintra is skipped.' },
  trip,
);

const map: StoredThreadMap = {
  id: 'thread:c-trip',
  subject: ['lisbon', 'alfama'],
  sessionIds: ['c-trip', 'c-trip-2', 'c-gone'],
  arc: [
    { stage: 'proposed', text: 'Stay in Baixa.', sessionId: 'c-trip', date: trip.date, sourceMessageIds: ['m1'], replaces: null },
    {
      stage: 'decided',
      text: 'Stay in Alfama.',
      sessionId: 'c-trip-2',
      date: trip2.date,
      sourceMessageIds: ['m7'],
      replaces: { text: 'Stay in Baixa.', sessionId: 'c-trip', date: trip.date },
    },
  ],
  at: NOW,
};

describe('structural units (summaries, thread maps, communities)', () => {
  it('a summary names its conversation as its one source, and is a structural record', () => {
    expect(summary).toMatchObject({
      id: 'summary:c-trip',
      kind: 'structure',
      conversationId: 'c-trip',
      sourceTitle: 'Summary: Lisbon trip',
      structure: { kind: 'summary', sources: [{ conversationId: 'c-trip', title: 'Lisbon trip', date: trip.date }] },
    });
    expect(summary.text).toMatch(/^Summary of "Lisbon trip" \(.+\):\n {2}We will stay in Alfama/u);
  });

  it('a thread map lists its arc under an overview line, and names only sessions still visible', () => {
    const unit = threadMapUnit(map, new Map([trip, trip2].map((c) => [c.id, c])));
    expect(unit.structure!.sources.map((s) => s.conversationId)).toEqual(['c-trip', 'c-trip-2']);
    expect(unit.messageIds).toEqual(['m1', 'm7']);
    expect(unit.text.split('\n')[0]).toMatch(/^Thread on lisbon, alfama across 2 sessions/u);
    expect(unit.text).toMatch(/decided .+: Stay in Alfama\. \(was: Stay in Baixa\.\)/u);
    // The budget's cut keeps the overview line and drops the arc.
    expect(firstLevel(unit.text)).toBe(unit.text.split('\n')[0]);
  });

  it('a community names its entities and conversations and quotes the line naming the most of them', () => {
    const unit = communityUnit(
      {
        id: 'community:lisbon',
        entities: ['Lisbon', 'Alfama', 'Cascais'].map((name, i) => ({
          id: name.toLowerCase(),
          name,
          kind: 'name' as const,
          mentions: 5 - i,
        })),
        docIds: ['d1', 'd2'],
        conversationIds: ['c-trip', 'c-gone'],
      },
      [
        {
          id: 'd1',
          text: 'Hi there. Alfama is a short walk from Lisbon cathedral and Cascais is a train away.',
          conversationId: 'c-trip',
          title: 'Lisbon trip',
          date: trip.date,
          messageIds: ['m2'],
        },
        { id: 'd2', text: 'Lisbon in May.', conversationId: 'c-trip', title: 'Lisbon trip', date: trip.date, messageIds: ['m3'] },
      ],
      new Map([[trip.id, trip]]),
    );
    expect(unit.text.split('\n')[0]).toBe('Named together: Lisbon, Alfama, Cascais in 1 conversation (Lisbon trip).');
    expect(unit.text).toMatch(/\n {2}- Alfama is a short walk from Lisbon cathedral and Cascais is a train away\. \(Lisbon trip, /u);
    expect(unit.structure!.sources.map((s) => s.conversationId)).toEqual(['c-trip']);
    expect(unit.messageIds).toEqual(['m2', 'm3']);
  });

  it('the structure index finds units by their title and text, with their index terms', () => {
    const index = new StructureIndex([summary, threadMapUnit(map, new Map([[trip.id, trip]]))]);
    expect(index.counts()).toEqual({ summary: 1, 'thread-map': 1, community: 0 });
    const hits = index.search('Cascais day trip', 5);
    expect(hits[0]!.record.id).toBe('summary:c-trip');
    expect(hits[0]!.terms.has('cascai')).toBe(true);
    expect(index.get('thread:c-trip')?.kind).toBe('structure');
    expect(index.get('nope')).toBeNull();
  });

  it('is packed Structural unless pinned or among the Core items', () => {
    expect(assignBudgetTier({ pinned: false, text: 'flat text', kind: 'structure' }, 5, 3)).toBe('structural');
    expect(assignBudgetTier({ pinned: false, text: 'flat text', kind: 'chunk' }, 5, 3)).toBe('peripheral');
    expect(assignBudgetTier({ pinned: true, text: 'flat text', kind: 'structure' }, 5, 3)).toBe('core');
    const pkg = assemblePackage([{ record: summary }], {
      window: 8000,
      format: 'markdown',
      sanitize: fakeSanitize,
      coreCount: 0,
      countTokens: (t) => t.split(/\s+/u).length,
    });
    expect(pkg.entries[0]).toMatchObject({ ref: 'summary:c-trip', budgetTier: 'structural' });
  });
});

describe('the structure stage of recall', () => {
  const chunks = [
    scored({ id: 'a', text: 'We will stay in Alfama near the cathedral.' }, 1),
    scored({ id: 'b', text: 'Cascais by train on day three.' }, 0.5),
    scored({ id: 'c', text: 'The cat eats wet food.' }, 0.2),
  ];
  const vault = new Bm25Index();
  for (const c of chunks) vault.add(c.record.id, c.record.text);
  const units = new StructureIndex([summary, threadMapUnit(map, new Map([[trip.id, trip]]))]);
  const input = (prompt: string, over: Partial<StructureStageInput> = {}): StructureStageInput => ({
    prompt,
    items: chunks,
    mode: 'GLOBAL',
    coreCount: 2,
    searcher: { search: async (p, k) => units.search(p, k) },
    judgment: termCoverage(
      vault.explain(
        prompt,
        chunks.map((c) => c.record.id),
      ),
    ),
    relevance: DEFAULT_RELEVANCE,
    refused: false,
    options: DEFAULT_STRUCTURE,
    ...over,
  });

  it('a GLOBAL prompt gets the units that hold enough of it, after the Core items', async () => {
    const out = await withStructure(input('Overview of where we stay in Alfama and the Cascais day'));
    // The summary holds Alfama and Cascais; the thread map Alfama: both pass the line, best first.
    expect(out.items.map((i) => i.record.id)).toEqual(['a', 'b', 'summary:c-trip', 'thread:c-trip', 'c']);
    expect(out.trace).toMatchObject({ mode: 'GLOBAL', searched: true, added: ['summary:c-trip', 'thread:c-trip'] });
    const limited = await withStructure(
      input('Overview of where we stay in Alfama and the Cascais day', { options: { ...DEFAULT_STRUCTURE, global: 1 } }),
    );
    expect(limited.trace.added).toEqual(['summary:c-trip']);
    expect(out.items[2]!.signals.coverage).toBeGreaterThanOrEqual(DEFAULT_RELEVANCE.refuseBelow);
  });

  it('a HYBRID prompt gets one at most; a LOCAL one none, unsearched', async () => {
    const prompt = 'Alfama and Baixa: where we stay, and the Cascais train';
    const hybrid = await withStructure(input(prompt, { mode: 'HYBRID' }));
    expect(hybrid.trace.added).toHaveLength(1);
    // After every memory: it displaces none from the first places.
    expect(hybrid.items.map((i) => i.record.id)).toEqual(['a', 'b', 'c', hybrid.trace.added[0]]);
    const local = await withStructure(input(prompt, { mode: 'LOCAL' }));
    expect(local.items).toEqual(chunks);
    expect(local.trace).toMatchObject({ searched: false, added: [], why: 'a LOCAL prompt reads chunks and notes only' });
  });

  it('adds nothing when the vault holds nothing on the prompt, or no unit holds enough of it', async () => {
    const refused = await withStructure(input('Overview of Alfama', { refused: true }));
    expect(refused.trace).toMatchObject({ searched: false, why: 'the vault holds nothing on this prompt' });
    const weak = await withStructure(input('Explain the principles of quantum chromodynamics near Alfama'));
    expect(weak.trace.added).toEqual([]);
    expect(weak.trace.why).toMatch(/^none of \d+ structural units holds/u);
  });

  it('unit coverage weighs the prompt terms a unit holds by the vault idf', () => {
    const judgment = termCoverage(vault.explain('Alfama cat', ['a', 'c']));
    expect(unitCoverage(judgment, new Set(['alfama']))).toBeCloseTo(0.5, 5);
    expect(unitCoverage(judgment, new Set(['alfama', 'cat']))).toBeCloseTo(1, 5);
    expect(unitCoverage(judgment, new Set())).toBe(0);
  });
});
