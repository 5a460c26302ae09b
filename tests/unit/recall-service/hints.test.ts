/**
 * Hints through the app's read path: chats imported, extracted (rule-based, or with the scripted
 * fake model's questions) and indexed; the index service makes every document's hints and keeps them
 * in step with the vault; a prompt that asks after a decision in other words than the chat's finds
 * the turn by its hint, and the trace says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmMessage } from '../../../src/lib/core/api/llm';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { openInProcessIndex, type InProcessIndex } from '../../../src/lib/services/index/in-process';
import { keepCandidates, undoChanges } from '../../../src/lib/store/note-actions';
import type { Vault } from '../../../src/lib/store/vault';
import { analyze } from '../../../src/lib/core/text/analyze';
import { stagedLlm } from '../../factories/scripted-llm';
import { freshVault, importText } from '../extract-job/helpers';

const TRIP = [
  'User: Planning five days in Lisbon in May. Alfama or Baixa for the hotel?',
  'Assistant: Alfama is hilly and charming; Baixa is flat and central. From Lisbon, Sintra and Cascais are easy day trips.',
  "User: We'll stay in Alfama, not Baixa. Let's skip Sintra and take the train to Cascais on day 3.",
  'Assistant: Good plan. The Cascais train leaves from Cais do Sodré every twenty minutes.',
].join('\n');

const CAT = [
  'User: Miso, my cat, is overweight. The vet wants her to lose 400 grams.',
  'Assistant: Measure portions and switch Miso to wet food twice a day.',
  "User: Decision: Miso gets wet food twice a day and no more dry food. I'll weigh her every Sunday.",
].join('\n');

describe('hints through the index and recall services', () => {
  let vault: Vault;
  let index: InProcessIndex;
  const conversations: string[] = [];

  beforeAll(async () => {
    vault = await freshVault();
    for (const [name, text] of [
      ['lisbon.txt', TRIP],
      ['cat.txt', CAT],
    ] as const) {
      const [id] = await importText(vault, text, name);
      conversations.push(id!);
      await extractAndStore({ vault, neighbours: termNeighbours(vault), llm: () => null }, id!);
    }
    index = await openInProcessIndex(vault);
    await index.runJobs({ hints: true });
  }, 60_000);

  afterAll(async () => {
    index.close();
    await vault.db.delete();
  });

  const turnChunk = async (words: string) => (await vault.db.chunks.toArray()).find((c) => c.text.includes(words))!;

  it('makes the hints of every indexed document, a chunk from the units of its messages', async () => {
    const hints = index.service.hints;
    expect(hints.progress.made).toBe(hints.progress.documents);
    expect(hints.progress.documents).toBeGreaterThan(0);
    const chunk = await turnChunk("We'll stay in Alfama");
    const made = await hints.hintsFor(chunk.id);
    expect(hints.countOf(chunk.id)).toBe(made.length);
    expect(made.length).toBeGreaterThan(0);
    expect(made.some((h) => /settle on/u.test(h) && /Alfama/u.test(h))).toBe(true);
  });

  it('a question in other words than the chat finds the turn by its hint, and the trace says which', async () => {
    const prompt = 'Which part of Lisbon did we settle on for the hotel?';
    const chunk = await turnChunk("We'll stay in Alfama");
    expect((await index.service.lexicalSearch(prompt, 10)).map((h) => h.id)).toContain(chunk.id); // found by its words too
    const hits = index.service.hints.search(prompt, 10);
    expect(hits[0]?.id).toBe(chunk.id);
    const answer = await index.recaller().answer({ prompt }, { writeBack: false, hints: true });
    if (!answer.ok) throw new Error(answer.error.message);
    const item = answer.value.result.items.find((i) => i.record.id === chunk.id);
    expect(item?.signals.hint?.terms).toContain(analyze('settle')[0]);
    expect(answer.value.result.hints?.lifted).toBeGreaterThanOrEqual(0);
    expect(answer.value.result.hints?.weight).toBeGreaterThan(0);
    // Off unless asked: the app's default.
    const off = await index.recaller().answer({ prompt }, { writeBack: false });
    if (!off.ok) throw new Error(off.error.message);
    expect(off.value.result.hints).toBeNull();
    expect(off.value.result.items.every((i) => i.signals.hint === undefined)).toBe(true);
  });

  it('a kept note gets hints of its own; when the keep is undone, it loses them', async () => {
    const decision = (await vault.db.notes.where('conversationId').equals(conversations[1]!).toArray()).find(
      (n) => n.category === 'Decisions',
    )!;
    const kept = await keepCandidates(vault, [{ id: decision.id }], Date.now());
    expect(kept.noteIds).toContain(decision.id);
    await index.runJobs({ hints: true });
    expect((await index.service.hints.hintsFor(decision.id))[0]).toMatch(/^What did (?:I|they) decide/u);
    expect(index.service.hints.countOf(decision.id)).toBeGreaterThan(0);
    await undoChanges(vault, kept.historyIds, Date.now());
    await index.runJobs({ hints: true });
    expect(index.service.hints.countOf(decision.id)).toBe(0);
  });

  it("units extracted after indexing remake the hints of their conversation's chunks", async () => {
    const v = await freshVault();
    try {
      const [id] = await importText(v, CAT, 'cat.txt');
      const idx = await openInProcessIndex(v);
      try {
        await idx.runJobs({ hints: true });
        const chunk = (await v.db.chunks.toArray()).find((c) => c.text.includes('Decision: Miso gets wet food'))!;
        expect((await idx.service.hints.hintsFor(chunk.id)).some((h) => /settle on/u.test(h))).toBe(false); // no units yet
        await extractAndStore({ vault: v, neighbours: termNeighbours(v), llm: () => null }, id!);
        await idx.service.hints.settled();
        expect(idx.service.hints.search('what did I settle on for the wet food', 5).map((h) => h.id)).toContain(chunk.id);
      } finally {
        idx.close();
      }
    } finally {
      await v.db.delete();
    }
  });

  it("with a model, extraction stores the model's questions on each new unit and the index reads them first", async () => {
    const v = await freshVault();
    try {
      const [id] = await importText(v, TRIP, 'lisbon.txt');
      // Off (the default), extraction asks the model for no hints.
      const silent = stagedLlm(() => 'other', { other: () => 'not JSON' });
      const quiet = await extractAndStore({ vault: v, neighbours: termNeighbours(v), llm: () => silent }, id!);
      expect(quiet.result.hints).toBeNull();
      expect(silent.calls.some((c) => /questions a person might ask/u.test(c.messages[0]?.content ?? ''))).toBe(false);
      await v.db.notes.clear();
      await v.settings.set('device.recall.hints', true);
      const stageOf = (messages: readonly LlmMessage[]) => {
        const system = messages[0]?.content ?? '';
        return /questions a person might ask/u.test(system) ? 'hints' : /Summarize/u.test(system) ? 'summary' : 'other';
      };
      // The extraction and decision prompts fail (the rules stand in); the hint prompt answers every unit.
      const llm = stagedLlm(stageOf, {
        other: () => {
          throw new Error('not scripted');
        },
        summary: () => JSON.stringify({ summary: 'short' }),
        hints: (messages) => {
          const n = messages[1]!.content.split('\n').length;
          return JSON.stringify({
            hints: Array.from({ length: n }, (_, i) => ({
              unit: i + 1,
              questions: [`Which quarter of the old town did we book, unit ${i + 1}?`],
            })),
          });
        },
      });
      const { result } = await extractAndStore({ vault: v, neighbours: termNeighbours(v), llm: () => llm }, id!);
      expect(result.hints?.fallbackReason).toBeNull();
      expect(result.hints?.units).toBe(result.candidates);
      const stored = await v.db.notes.where('conversationId').equals(id!).toArray();
      expect(stored.length).toBeGreaterThan(0);
      expect(stored.every((n) => n.hints?.[0]?.startsWith('Which quarter of the old town did we book'))).toBe(true);
      const idx = await openInProcessIndex(v);
      try {
        await idx.runJobs({ hints: true });
        const chunk = (await v.db.chunks.toArray()).find((c) => c.text.includes("We'll stay in Alfama"))!;
        expect((await idx.service.hints.hintsFor(chunk.id))[0]).toMatch(/^Which quarter of the old town did we book/u);
        expect(idx.service.hints.search('which quarter of the old town', 5).map((h) => h.id)).toContain(chunk.id);
      } finally {
        idx.close();
      }
    } finally {
      await v.db.delete();
    }
  });
});
