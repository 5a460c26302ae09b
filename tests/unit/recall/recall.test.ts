import { describe, expect, it, vi } from 'vitest';
import { recall } from '../../../src/lib/core/recall/recall';
import { scriptedLlm } from '../../factories/scripted-llm';
import { candidateRecord, NOW } from '../../factories/recall';
import { recordsIndex } from '../../factories/recall-index';

const records = [
  candidateRecord({ id: 'n1', kind: 'note', tier: 'engram', text: 'Garden path: warm 2700K bollard lights, chosen in May.' }),
  candidateRecord({ id: 'c1', text: 'We compared solar and wired path lights for the garden.' }),
  candidateRecord({ id: 'c2', text: 'The sourdough needs a longer bulk ferment in winter.' }),
];

describe('recall', () => {
  it('runs the read path and returns items, signals, floor, gate status, write-backs and timings', async () => {
    const deps = await recordsIndex(records);
    let t = 0;
    const result = await recall(
      { prompt: 'What did I decide about the garden path lights?' },
      { ...deps, now: NOW, clock: () => (t += 1) },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const r = result.value;
    expect(r.intent.source).toBe('deterministic');
    expect(r.decomposition.variants[0]).toMatchObject({ kind: 'concept', text: 'garden path lights' });
    expect(r.items[0]!.record.id).toBe('n1');
    expect(r.items[0]!.signals).toMatchObject({ bm25Rank: expect.any(Number), rrf: expect.any(Number) });
    expect(r.gate).toMatchObject({ ran: false, reason: 'no-llm' });
    expect(r.floor).toMatchObject({ embedderId: 'lexical-v1-384' });
    expect(r.accessWrites[0]).toEqual({ id: 'n1', kind: 'note', at: NOW });
    expect(r.accessWrites.map((w) => [w.id, w.kind])).toEqual(r.items.map((c) => [c.record.id, c.record.kind]));
    expect(r.timings.totalMs).toBeGreaterThan(0);
    // The lexical embedder's floor lets the off-topic sourdough turn through on shared 3-grams (the
    // model-free relevance stage of the recall issue is what refuses it); it still ranks last.
    const order = r.items.map((c) => c.record.id);
    expect(order.slice(0, 2).sort()).toEqual(['c1', 'n1']);
  });

  it('spares a lexical match under the floor for a LOCAL prompt, never for a GLOBAL one', async () => {
    const deps = await recordsIndex(records);
    const prompt = 'garden path lights';
    const similarity = async () => {
      const open = await recall({ prompt, intentClass: 'factual' }, { ...deps, now: NOW }, { floor: -1 });
      if (!open.ok) throw new Error(open.error.message);
      return new Map(open.value.items.map((c) => [c.record.id, c.signals.vectorSimilarity ?? 0]));
    };
    const sims = await similarity();
    // A floor between the two garden memories: the one with the lower cosine falls under it (both hold
    // every word of the prompt), the other keeps the prompt answerable.
    const [low, high] = ['n1', 'c1'].sort((a, b) => sims.get(a)! - sims.get(b)!) as [string, string];
    expect(sims.get(high)!).toBeGreaterThan(sims.get(low)!);
    const floor = (sims.get(high)! + sims.get(low)!) / 2;
    const ask = async (intentClass: 'factual' | 'conceptual') => {
      const r = await recall({ prompt, intentClass }, { ...deps, now: NOW }, { floor });
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    const local = await ask('factual');
    expect(local.intentClass?.mode).toBe('LOCAL');
    expect(local.items.map((c) => c.record.id)).toContain(low);
    expect(local.floor).toMatchObject({ value: floor, spared: 1 });
    const global = await ask('conceptual');
    expect(global.intentClass?.mode).toBe('GLOBAL');
    expect(global.items.map((c) => c.record.id)).not.toContain(low);
    expect(global.dropped.find((d) => d.candidate.record.id === low)).toMatchObject({ stage: 'floor' });
    expect(global.floor?.spared).toBeUndefined();
  });

  it('judges against the intent the person edited', async () => {
    const deps = await recordsIndex(records);
    const llm = scriptedLlm([JSON.stringify({ verdicts: [{ ref: 'm1', keep: true, reason: 'lighting' }] })]);
    const result = await recall(
      { prompt: 'garden path lights', intent: 'Outdoor lighting decisions' },
      { ...deps, llm, now: NOW },
      { llmDecompose: false, llmIntent: false },
    );
    expect(result.ok && result.value.intent).toEqual({ text: 'Outdoor lighting decisions', source: 'given', fallbackReason: null });
    expect(llm.calls[0]!.messages[1]!.content).toContain('Intent: Outdoor lighting decisions');
  });

  it('returns an error result for an empty prompt, a cancelled query or a failing searcher', async () => {
    const deps = await recordsIndex(records);
    expect(await recall({ prompt: '   ' }, { ...deps, now: NOW })).toMatchObject({ ok: false, error: { code: 'input/invalid' } });
    const controller = new AbortController();
    controller.abort();
    expect(await recall({ prompt: 'garden' }, { ...deps, now: NOW }, { signal: controller.signal })).toMatchObject({
      ok: false,
      error: { code: 'recall/cancelled' },
    });
    vi.spyOn(deps.lexical, 'search').mockRejectedValue(new Error('index not loaded'));
    expect(await recall({ prompt: 'garden' }, { ...deps, now: NOW })).toMatchObject({
      ok: false,
      error: { code: 'recall/failed', message: 'index not loaded' },
    });
  });

  it('with the funnel switched off, gives the plain hybrid ranking', async () => {
    const deps = await recordsIndex(records);
    const result = await recall({ prompt: 'garden path lights' }, { ...deps, now: NOW }, { funnel: false });
    expect(result.ok && result.value).toMatchObject({ funnel: false, dropped: [], floor: null, gate: { reason: 'disabled' } });
  });
});
