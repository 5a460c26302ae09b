/**
 * The reranker's cost in Node: 30 query/passage pairs (a funnel's worth of survivors, LoCoMo-sized
 * turns) through the tiny generated cross-encoder, batched as recall runs it
 * (`TransformersReranker`, ONNX Runtime's CPU backend). It measures the loading and batching path
 * (tokenizer, pair encoding, session run, logits), not a real model's speed: the tiny model has no
 * layers. Figure: rerank.tiny.30.ms (median of `runs`, each the median of 20 repetitions after a
 * warm-up).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_TEST_MODEL_ROOT, makeTestCrossEncoder } from '../../scripts/make-test-model';
import { TINY_TEST_RERANKER } from '../../src/lib/models/reranker-models';
import { TransformersReranker } from '../../src/lib/models/transformers-reranker';
import { percentile } from './harness';
import type { BenchContext, BenchModule, FigureSamples } from './harness';

const PAIRS = 30;
const REPEAT = 20;

const PASSAGES = Array.from(
  { length: PAIRS },
  (_, i) =>
    `Turn ${i}: I walked the garden path to the koi pond at ${i % 12} in the morning, talked about the trip budget, ` +
    `the music we like and the book I read, then made tea by the stone lantern while the maple tree dropped its leaves.`,
);

export const bench: BenchModule = {
  name: 'rerank',
  async run(ctx: BenchContext): Promise<FigureSamples[]> {
    if (!ctx.wants('rerank.tiny')) return [];
    const root = resolve(DEFAULT_TEST_MODEL_ROOT);
    if (!existsSync(join(root, TINY_TEST_RERANKER.modelId, 'onnx', 'model.onnx'))) makeTestCrossEncoder(root);
    const reranker = await TransformersReranker.load({ model: TINY_TEST_RERANKER, source: { kind: 'local', path: root } });
    const query = 'When did I walk to the koi pond and make tea by the lantern?';
    await reranker.score(query, PASSAGES);
    const values: number[] = [];
    for (let run = 0; run < ctx.runs; run++) {
      const times: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const t0 = performance.now();
        await reranker.score(query, PASSAGES);
        times.push(performance.now() - t0);
      }
      values.push(percentile(times, 50));
    }
    await reranker.dispose();
    ctx.log(`${PAIRS} pairs of ~${Math.round(PASSAGES[0]!.split(' ').length)} words, batch 16, CPU backend`);
    return [
      {
        name: 'rerank.tiny.30.ms',
        unit: 'ms',
        values,
        meta: { pairs: PAIRS, repeat: REPEAT, model: 'tiny-cross-encoder (generated, no layers)' },
      },
    ];
  },
};
