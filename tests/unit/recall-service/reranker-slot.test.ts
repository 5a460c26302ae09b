import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCrossEncoder } from '../../../scripts/make-test-model';
import type { RerankerChoice } from '../../../src/lib/core/api/reranker';
import { staticModelLibrary } from '../../../src/lib/models/model-library';
import { TINY_TEST_RERANKER } from '../../../src/lib/models/reranker-models';
import { inProcessEmbedderHost } from '../../../src/lib/services/index/in-process-host';
import { RecallService } from '../../../src/lib/services/recall/recall-service';
import { RerankerSlot } from '../../../src/lib/services/recall/reranker-slot';
import { Rerankers } from '../../../src/lib/services/recall/rerankers';
import { harnessPool } from '../../factories/index-harness';

const ROOT = resolve('static/test-models');
const TINY: RerankerChoice = { kind: 'reranker', spec: TINY_TEST_RERANKER, origin: 'origin', path: ROOT };
const fresh = harnessPool();

beforeAll(() => {
  if (!existsSync(join(ROOT, 'tiny-cross-encoder', 'onnx', 'model.onnx'))) makeTestCrossEncoder(ROOT);
});

/** Turns about a garden, each naming different words of the tiny model's vocabulary. */
const GARDEN = [
  'User: The koi pond by the stone lantern needs clean water every week.',
  'Assistant: A bamboo path to the bridge keeps the moss green.',
  'User: I read a book about tea and the maple tree in the morning.',
  'Assistant: Plant a flower by the gravel path, and rake the gravel.',
  'User: Budget for the trip: money for travel and food.',
].join('\n');

describe('the reranker recall uses on this device', () => {
  it('loads the chosen cross-encoder through the real transformers.js path, saves the choice, and recall reranks with it', async () => {
    const h = await fresh();
    await h.importText('garden.txt', GARDEN);
    await h.drain();
    const changes: string[] = [];
    const slot = new RerankerSlot(inProcessEmbedderHost(), h.vault.settings, () => changes.push(slot.state()?.state ?? 'none'));
    const list = new Rerankers(slot, staticModelLibrary<RerankerChoice>([TINY]));
    expect(slot.current()).toBeNull();
    expect(slot.state()).toBeNull();

    await list.use(TINY);
    expect(slot.state()).toMatchObject({ id: 'reranker:tiny-cross-encoder:fp32', state: 'ready', device: 'cpu' });
    expect(changes).toContain('loading');
    expect(await h.vault.settings.get('device.recall.reranker')).toEqual(TINY);
    expect((await list.entries()).map((e) => [e.rerankerId, e.active])).toEqual([['reranker:tiny-cross-encoder:fp32', true]]);

    // A restart restores it from the setting.
    const again = new RerankerSlot(inProcessEmbedderHost(), h.vault.settings);
    await again.restore();
    await again.settled();
    expect(again.state()?.state).toBe('ready');

    const service = new RecallService(h.service.recallSources(), h.vault, { reranker: () => slot.current() });
    const never = { dominantGap: 1.01, clusterBand: -1 };
    const answer = await service.answer({ prompt: 'koi pond water lantern stone' }, { writeBack: false, attention: never });
    if (!answer.ok) throw new Error(answer.error.message);
    const { rerank, items } = answer.value.result;
    expect(rerank).toMatchObject({ ran: true, rerankerId: 'reranker:tiny-cross-encoder:fp32' });
    expect(items[0]!.rerank!.score).toBeGreaterThanOrEqual(4);
    expect(items[0]!.record.text).toContain('koi pond');

    await list.delete('reranker:tiny-cross-encoder:fp32');
    expect(slot.current()).toBeNull();
    expect(await h.vault.settings.get('device.recall.reranker')).toBeNull();
  });

  it('says the reranker is unavailable when it cannot load, and recall goes on without it', async () => {
    const h = await fresh();
    const slot = new RerankerSlot(inProcessEmbedderHost(), h.vault.settings);
    await slot.use({ ...TINY, spec: { ...TINY.spec, modelId: 'missing-model' } });
    expect(slot.state()).toMatchObject({ state: 'unavailable', error: { code: 'embed/unavailable' } });
    expect(slot.current()).toBeNull();
  });
});
