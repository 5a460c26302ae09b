import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestModel, TINY_BERT_DIMS } from '../../../scripts/make-test-model';
import { embedderId, TINY_TEST_MODEL } from '../../../src/lib/models/embedding-models';
import { pickDevice } from '../../../src/lib/models/model-device';
import { TransformersEmbedder } from '../../../src/lib/models/transformers-embedder';

const root = resolve('static/test-models');
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('TransformersEmbedder with the generated tiny BERT, from a local path', () => {
  let embedder: TransformersEmbedder;

  beforeAll(async () => {
    if (!existsSync(join(root, 'tiny-bert', 'onnx', 'model.onnx'))) makeTestModel(root);
    const progress: string[] = [];
    embedder = await TransformersEmbedder.load({
      model: TINY_TEST_MODEL,
      source: { kind: 'local', path: root },
      batchSize: 2,
      onProgress: (p) => progress.push(p.status),
    });
    expect(progress).toContain('ready');
  });

  it('names itself after the model and runs on the native CPU backend in Node', async () => {
    expect(embedder.id).toBe(embedderId(TINY_TEST_MODEL));
    expect(embedder.id).toBe('transformers:tiny-bert:fp32');
    expect(embedder.dims).toBe(TINY_BERT_DIMS);
    expect(embedder.device).toBe('cpu');
    expect(await pickDevice()).toBe('cpu');
  });

  it('returns one unit vector of the model width per text, in order', async () => {
    const texts = ['The maple by the pond.', 'A budget for the trip', 'moss', 'Zyxw unknown words!', 'tea'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(32);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Batching (padding inside a batch of two) gives the same vectors as one text at a time.
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      alone!.forEach((x, d) => expect(x).toBeCloseTo(vectors[i]![d]!, 5));
    }
  });

  it('is deterministic, and different texts get different vectors', async () => {
    const [a1, b] = await embedder.embed(['garden stones', 'music and books']);
    const [a2] = await embedder.embed(['garden stones']);
    expect(Array.from(a2!)).toEqual(Array.from(a1!));
    expect(Array.from(b!)).not.toEqual(Array.from(a1!));
  });

  it('stops between batches when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['a', 'b', 'c'], { signal: controller.signal })).rejects.toMatchObject({ code: 'embed/failed' });
  });

  it('reports a model that is not there as unavailable, without reaching for the network', async () => {
    await expect(
      TransformersEmbedder.load({ model: { ...TINY_TEST_MODEL, modelId: 'no-such-model' }, source: { kind: 'local', path: root } }),
    ).rejects.toMatchObject({ code: 'embed/unavailable' });
  });
});

describe('pickDevice in a browser', () => {
  const gpu = (requestAdapter: () => Promise<unknown>) => ({ gpu: { requestAdapter } });
  it('chooses WebGPU only when an adapter is handed out, WASM otherwise', async () => {
    expect(
      await pickDevice(
        gpu(() => Promise.resolve({ name: 'adapter' })),
        false,
      ),
    ).toBe('webgpu');
    expect(
      await pickDevice(
        gpu(() => Promise.resolve(null)),
        false,
      ),
    ).toBe('wasm');
    expect(
      await pickDevice(
        gpu(() => Promise.reject(new Error('blocklisted'))),
        false,
      ),
    ).toBe('wasm');
    expect(await pickDevice({}, false)).toBe('wasm');
    expect(await pickDevice(undefined, false)).toBe('wasm');
  });
});
