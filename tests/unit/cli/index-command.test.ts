import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestModel } from '../../../scripts/make-test-model';
import { DOCUMENT, MAPLE, MOSS } from '../../factories/index-fixtures';
import { runCli } from '../../factories/cli';

const run = runCli;

let dir = '';
beforeAll(() => {
  const root = resolve('static/test-models');
  if (!existsSync(join(root, 'tiny-bert', 'onnx', 'model.onnx'))) makeTestModel(root);
  dir = mkdtempSync(join(tmpdir(), 'engram-index-'));
  writeFileSync(join(dir, 'maple.txt'), MAPLE);
  writeFileSync(join(dir, 'moss.txt'), MOSS);
  writeFileSync(join(dir, 'handbook.md'), DOCUMENT);
});

interface IndexJson {
  embedder: { id: string; dims: number; device: string | null };
  counts: {
    conversations: number;
    messages: number;
    resources: number;
    documents: number;
    chunks: number;
    bm25Documents: number;
    vectors: number;
  };
  seconds: Record<string, number>;
  health: { recallAt10: number; queries: number } | null;
}

describe('engram index', () => {
  it('imports and indexes with the lexical embedder, printing counts, timings and health', async () => {
    const { code, out } = await run(['index', dir, '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(out) as IndexJson;
    expect(json.embedder).toMatchObject({ id: 'lexical-v1-384', dims: 384 });
    expect(json.counts).toMatchObject({ conversations: 2, messages: 7, resources: 1 });
    expect(json.counts.documents).toBe(json.counts.chunks);
    expect(json.counts.bm25Documents).toBe(json.counts.documents);
    expect(json.counts.vectors).toBe(json.counts.documents);
    expect(json.health!.recallAt10).toBeGreaterThanOrEqual(0.95);
    expect(json.seconds.total).toBeGreaterThan(0);
  });

  it('indexes with the generated tiny model through the real TransformersEmbedder (tiny-test)', async () => {
    const { code, out } = await run(['index', dir, '--embedder', 'tiny-test', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(out) as IndexJson;
    expect(json.embedder).toEqual({ id: 'transformers:tiny-bert:fp32', kind: 'neural', dims: 32, device: 'cpu' });
    expect(json.counts.vectors).toBe(json.counts.documents);
  });

  it('says which embedders exist when given an unknown one', async () => {
    const { code, err } = await run(['index', dir, '--embedder', 'transformers:nobody/nothing']);
    expect(code).toBe(2);
    expect(err).toMatch(/lexical, tiny-test or transformers:Snowflake\/snowflake-arctic-embed-xs/u);
  });
});
