/**
 * The GLOBAL view through the app's read path: chats imported by the importer, extracted by the
 * extraction job (which stores each session's summary), indexed by the index service (which builds
 * the entity graph), asked through the recall service. A GLOBAL prompt gets structural items (a
 * session summary, an entity community) packed as Structural with their sources; a LOCAL prompt
 * gets none; the person's drops and pins apply to them as to any item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpandToolOutput, RecallToolOutput } from '../../../src/lib/core/api/agent-tools';
import { AgentTools } from '../../../src/lib/services/agent/agent-tools';
import type { InProcessIndex } from '../../../src/lib/services/index/in-process';
import { MIN_REBUILD_MS, StructureView } from '../../../src/lib/services/index/structure-view';
import { readCandidates } from '../../../src/lib/services/index/candidates';
import { writeSummary } from '../../../src/lib/store/summaries-repo';
import type { Vault } from '../../../src/lib/store/vault';
import { CAT, chatVault, GARDEN, type ChatVault } from './chat-vault';

const TRIP = [
  'User: Planning five days in Lisbon in May. Alfama or Baixa for the hotel?',
  'Assistant: Alfama is hilly and charming; Baixa is flat and central. From Lisbon, Sintra and Cascais are easy day trips.',
  "User: We'll stay in Alfama, not Baixa. Let's skip Sintra and take the train to Cascais on day 3.",
  'Assistant: Good plan. The Cascais train leaves from Cais do Sodré every twenty minutes; Alfama to Cais do Sodré is a short tram ride.',
  'User: Book the Alfama guesthouse near the Lisbon cathedral, and Cascais on Wednesday.',
].join('\n');

describe('the GLOBAL view through the recall service', () => {
  let chats: ChatVault;
  let vault: Vault;
  let index: InProcessIndex;
  let ids: Record<string, string>;

  beforeAll(async () => {
    chats = await chatVault([
      ['lisbon.txt', TRIP],
      ['garden.txt', GARDEN],
      ['cat.txt', CAT],
    ]);
    ({ vault, index, ids } = chats);
  }, 60_000);

  afterAll(() => chats.close());

  const ask = (prompt: string, more: { pinned?: string[]; dropped?: string[] } = {}) => chats.ask(prompt, more);

  it('builds summaries from the extraction job and communities from the entity graph', async () => {
    const built = await index.service.structure.index();
    expect(built.counts().summary).toBe(3);
    expect(built.counts().community).toBeGreaterThanOrEqual(1);
  });

  it('a GLOBAL prompt gets structural items, packed Structural, with their sources', async () => {
    const answer = await ask('Give me an overview of the Lisbon trip: Alfama, Sintra and Cascais');
    expect(answer.result.intentClass?.mode).toBe('GLOBAL');
    const structural = answer.result.items.filter((i) => i.record.kind === 'structure');
    expect(structural.map((i) => i.record.id)).toContain(`summary:${ids['lisbon.txt']}`);
    expect(answer.result.structure).toMatchObject({ mode: 'GLOBAL', searched: true });
    expect(answer.result.structure!.added).toEqual(structural.map((i) => i.record.id));
    // Every structural item names the trip as a source, and none is about the garden or the cat.
    for (const item of structural) {
      expect(item.record.structure!.sources.map((s) => s.conversationId)).toContain(ids['lisbon.txt']);
      expect(item.record.text).not.toMatch(/Rachio|Miso/u);
    }
    const entry = answer.package.entries.find((e) => e.ref === `summary:${ids['lisbon.txt']}`);
    expect(entry?.budgetTier).toBe('structural');
    expect(answer.package.text).toMatch(/Summary of "/u);
    // Session focus: the package holds the trip, not the garden or the cat.
    expect(answer.result.focus).toMatchObject({ ratio: 0.5 });
    for (const item of answer.result.items) {
      const from = item.record.structure?.sources.map((s) => s.conversationId) ?? [item.record.conversationId];
      expect(from, item.record.text).toContain(ids['lisbon.txt']);
    }
    // Structural units are rebuilt from their sources: no read is written back for them.
    expect(answer.result.accessWrites.map((w) => w.id)).not.toContain(`summary:${ids['lisbon.txt']}`);
  });

  it('with the funnel off the items are the plain ranking: no structural items, no focus', async () => {
    const answer = await index
      .recaller()
      .answer({ prompt: 'Give me an overview of the Lisbon trip: Alfama, Sintra and Cascais' }, { writeBack: false, funnel: false });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.result.items.some((i) => i.record.kind === 'structure')).toBe(false);
    expect(answer.value.result.structure).toBeNull();
    expect(answer.value.result.focus).toBeNull();
  });

  it('a LOCAL prompt reads chunks and notes only', async () => {
    const answer = await ask('When is the train to Cascais?');
    expect(answer.result.intentClass?.mode).toBe('LOCAL');
    expect(answer.result.items.some((i) => i.record.kind === 'structure')).toBe(false);
    expect(answer.result.structure).toMatchObject({ searched: false, added: [] });
  });

  it('an off-topic GLOBAL prompt is refused without structural padding', async () => {
    const answer = await ask('Explain the principles of quantum chromodynamics');
    expect(answer.result.holdsNothing).not.toBeNull();
    expect(answer.result.items).toEqual([]);
    expect(answer.result.structure).toMatchObject({ searched: false, why: 'the vault holds nothing on this prompt' });
  });

  it('a dropped structural item stays out; a pinned one is kept, even for a LOCAL prompt', async () => {
    const id = `summary:${ids['lisbon.txt']}`;
    const dropped = await ask('Give me an overview of the Lisbon trip: Alfama, Sintra and Cascais', { dropped: [id] });
    expect(dropped.result.items.map((i) => i.record.id)).not.toContain(id);
    expect(dropped.excluded).toEqual([{ id, record: expect.objectContaining({ id, kind: 'structure' }) }]);
    const pinned = await ask('When is the train to Cascais?', { pinned: [id] });
    const item = pinned.result.items.find((i) => i.record.id === id);
    expect(item?.record.pinned).toBe(true);
    expect(pinned.package.entries.find((e) => e.ref === id)?.budgetTier).toBe('core');
  });

  it('agents get structural items with their source conversations, and can expand a summary or a source', async () => {
    const recaller = index.recaller();
    const tools = new AgentTools(
      {
        names: () => ['Home'],
        get: async () => ({ name: 'Home', vault, recaller }),
        remember: () => Promise.reject(new Error('not here')),
      },
      { writeBack: false },
    );
    const recalled = await tools.call('recall', { prompt: 'Give me an overview of the Lisbon trip: Alfama, Sintra and Cascais' });
    if (!recalled.ok) throw new Error(recalled.error.message);
    const structural = (recalled.value as RecallToolOutput).items.filter((i) => i.kind === 'structure');
    expect(structural.length).toBeGreaterThan(0);
    for (const item of structural) {
      expect(item.source.kind).toBe('conversation');
      expect(item.source.conversation_ids).toContain(ids['lisbon.txt']);
    }
    const summary = await tools.call('expand', { id: `summary:${ids['lisbon.txt']}`, radius: 1 });
    if (!summary.ok) throw new Error(summary.error.message);
    expect((summary.value as ExpandToolOutput).conversation?.id).toBe(ids['lisbon.txt']);
    expect((summary.value as ExpandToolOutput).turns.length).toBeGreaterThan(0);
    const source = await tools.call('expand', { id: ids['garden.txt']! });
    if (!source.ok) throw new Error(source.error.message);
    expect((source.value as ExpandToolOutput).turns[0]!.text).toMatch(/Rachio/u);
    const community = await tools.call('expand', { id: 'community:lisbon' });
    expect(community.ok ? null : community.error.message).toMatch(/expand one of its source conversations/u);
  });

  it('after a change the last index serves while a new one builds, at most one build a minute', async () => {
    let clock = 1_000_000;
    const view = new StructureView(
      index.service.parts,
      (ids) => readCandidates(vault, ids),
      () => clock,
    );
    const first = await view.index();
    expect(first.get(`summary:${ids['cat.txt']}`)).not.toBeNull();
    const summary = (await vault.db.summaries.get(ids['cat.txt']!))!;
    await writeSummary(vault.db, { ...summary, text: 'Miso now eats only wet food; weigh her on Sundays.', at: summary.at + 1 });
    // Within the minute: the last index, and no build started.
    clock += MIN_REBUILD_MS - 1;
    expect(await view.index()).toBe(first);
    await view.settled();
    expect(await view.index()).toBe(first);
    // After it: the last index still answers this recall; the next one gets the new build.
    clock += 2;
    expect(await view.index()).toBe(first);
    await view.settled();
    const second = await view.index();
    expect(second).not.toBe(first);
    expect(second.get(`summary:${ids['cat.txt']}`)?.text).toMatch(/only wet food/u);
  });
});
