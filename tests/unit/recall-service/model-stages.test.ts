import { describe, expect, it } from 'vitest';
import { StageBreakers } from '../../../src/lib/core/breaker/circuit-breaker';
import type { Reranker } from '../../../src/lib/core/recall/rerank';
import { RecallService } from '../../../src/lib/services/recall/recall-service';
import { harnessPool, type Harness } from '../../factories/index-harness';
import { BUDGET, MAPLE, MOSS } from '../../factories/index-fixtures';
import { scriptedLlm } from '../../factories/scripted-llm';

const NOW = Date.UTC(2026, 10, 22);
const fresh = harnessPool();

async function vault(): Promise<Harness> {
  const h = await fresh();
  await h.importText('maple.txt', MAPLE);
  await h.importText('moss.txt', MOSS);
  await h.importText('budget.txt', BUDGET);
  await h.drain();
  return h;
}

const PROMPT = 'When should I prune the Japanese maple, and what about the moss in the courtyard garden?';

describe('the model stages of recall behind their breakers', () => {
  it('a model that fails every call: the stages fall back, their breakers open after three recalls, then no call is made and the trace says when it retries', async () => {
    const h = await vault();
    const t = NOW;
    const breakers = new StageBreakers({ now: () => t });
    const llm = scriptedLlm(() => {
      throw new Error('connection refused');
    });
    const service = new RecallService(h.service.recallSources(), h.vault, { now: () => t, llm: () => llm, breakers });
    const noModel = new RecallService(h.service.recallSources(), h.vault, { now: () => t });
    const baseline = await noModel.answer({ prompt: PROMPT }, { writeBack: false });
    expect(baseline.ok).toBe(true);
    if (!baseline.ok) return;
    const ids = (r: typeof baseline) => (r.ok ? r.value.result.items.map((i) => i.record.id) : []);
    expect(ids(baseline).length).toBeGreaterThan(0);

    for (let i = 0; i < 3; i++) {
      const answer = await service.answer({ prompt: PROMPT }, { writeBack: false });
      expect(answer.ok).toBe(true);
      if (!answer.ok) return;
      const { stages, gate } = answer.value.result;
      expect(stages['fit-gate'].outcome).toBe('failed');
      expect(stages.decompose.outcome).toBe('failed');
      expect(gate).toMatchObject({ ran: false, reason: 'error' });
      // Fail-open and deterministic fallbacks: the same items as without a model.
      expect(ids(answer)).toEqual(ids(baseline));
    }
    const calls = llm.calls.length;
    expect(calls).toBe(9); // intent, decomposition, gate x 3 recalls
    const open = await service.answer({ prompt: PROMPT }, { writeBack: false });
    expect(llm.calls.length).toBe(calls);
    if (!open.ok) throw new Error('recall failed');
    const result = open.value.result;
    expect(result.gate).toMatchObject({ ran: false, reason: 'breaker-open' });
    if (!result.gate.ran) {
      expect(result.gate.message).toContain('retries in 10 min');
      expect(result.gate.breaker).toMatchObject({ stage: 'fit-gate', state: 'open', retryAt: t + 600_000 });
    }
    expect(result.stages['fit-gate']).toMatchObject({ outcome: 'bypassed' });
    expect(result.stages.decompose).toMatchObject({ outcome: 'bypassed' });
    expect(result.decomposition.fallbackReason).toContain('bypassed');
    expect(ids(open)).toEqual(ids(baseline));
  });

  it('the reranker reorders the funnel survivors, and its trace and status say what it did', async () => {
    const h = await vault();
    const seen: string[][] = [];
    let favourite = '';
    // A fake cross-encoder that prefers one passage: the one the first stage ranked last.
    const reranker: Reranker = {
      id: 'fake:favourite',
      async score(query, passages) {
        seen.push([query, ...passages]);
        return passages.map((p) => (p === favourite ? 5 : 0));
      },
    };
    const service = new RecallService(h.service.recallSources(), h.vault, { now: () => NOW, reranker: () => reranker });
    const never = { dominantGap: 1.01, clusterBand: -1 };
    const off = await service.answer({ prompt: PROMPT }, { writeBack: false, rerank: false });
    if (!off.ok) throw new Error('recall failed');
    expect(off.value.result.rerank).toMatchObject({ ran: false, reason: 'disabled' });
    const before = off.value.result.items;
    expect(before.length).toBeGreaterThan(2);
    favourite = before[before.length - 1]!.record.text;
    expect(seen).toHaveLength(0);

    const answer = await service.answer({ prompt: PROMPT }, { writeBack: false, attention: never });
    if (!answer.ok) throw new Error('recall failed');
    const { rerank, items, stages } = answer.value.result;
    expect(rerank).toMatchObject({ ran: true, rerankerId: 'fake:favourite' });
    expect(seen[0]![0]).toBe(PROMPT);
    expect(stages.rerank.outcome).toBe('ok');
    expect(items[0]!.record.text).toBe(favourite);
    expect(items[0]!.rerank).toMatchObject({ score: 5 });
    expect(new Set(items.map((i) => i.record.id))).toEqual(new Set(before.map((i) => i.record.id)));
  });
});
