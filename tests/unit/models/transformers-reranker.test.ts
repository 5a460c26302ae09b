import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCrossEncoder } from '../../../scripts/make-test-model';
import { relevanceLogits, TransformersReranker } from '../../../src/lib/models/transformers-reranker';
import { TINY_TEST_RERANKER } from '../../../src/lib/models/reranker-models';

const root = resolve('static/test-models');

describe('TransformersReranker with the generated tiny cross-encoder, from a local path', () => {
  let reranker: TransformersReranker;

  beforeAll(async () => {
    if (!existsSync(join(root, 'tiny-cross-encoder', 'onnx', 'model.onnx'))) makeTestCrossEncoder(root);
    const progress: string[] = [];
    reranker = await TransformersReranker.load({
      model: TINY_TEST_RERANKER,
      source: { kind: 'local', path: root },
      batchSize: 2,
      onProgress: (p) => progress.push(p.status),
    });
    expect(progress).toContain('ready');
  });

  it('names itself after the model and runs on the native CPU backend in Node', () => {
    expect(reranker.id).toBe('reranker:tiny-cross-encoder:fp32');
    expect(reranker.device).toBe('cpu');
  });

  it('scores each query/passage pair: the tiny model counts shared content words of its vocabulary', async () => {
    const passages = [
      'The maple by the pond needs water.',
      'A budget for the trip and the music.',
      'maple maple garden',
      'Zyxw unknown words!',
      'The garden path and the stone lantern by the maple.',
    ];
    const scores = await reranker.score('When do I water the maple in the garden?', passages);
    // maple + water = 2; none = 0; maple x2 + garden = 3; none = 0; garden + maple = 2
    expect(scores).toEqual([2, 0, 3, 0, 2]);
  });

  it('gives the same scores in batches as one pair at a time, and the query segment is not counted against itself', async () => {
    const passages = ['tea and moss', 'moss', 'koi pond bridge', 'bamboo'];
    const batched = await reranker.score('moss koi pond', passages);
    const alone = [];
    for (const p of passages) alone.push(...(await reranker.score('moss koi pond', [p])));
    expect(batched).toEqual(alone);
    expect(batched).toEqual([1, 1, 2, 0]);
  });

  it('stops between batches when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(reranker.score('maple', ['a', 'b', 'c'], { signal: controller.signal })).rejects.toMatchObject({ code: 'embed/failed' });
  });

  it('fails with a clear error when the model is not there', async () => {
    await expect(
      TransformersReranker.load({ model: { ...TINY_TEST_RERANKER, modelId: 'no-such-model' }, source: { kind: 'local', path: root } }),
    ).rejects.toMatchObject({ code: 'embed/unavailable' });
  });
});

describe('relevanceLogits', () => {
  it('reads a one-logit head as is, and a two-label head as relevant minus not', () => {
    expect(relevanceLogits({ data: new Float32Array([1.5, -2]), dims: [2, 1] })).toEqual([1.5, -2]);
    expect(relevanceLogits({ data: new Float32Array([0, 2, 3, 1]), dims: [2, 2] })).toEqual([2, -2]);
  });
});
