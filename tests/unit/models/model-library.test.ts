import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCrossEncoder, makeTestModel } from '../../../scripts/make-test-model';
import type { RerankerChoice } from '../../../src/lib/core/api/reranker';
import type { EmbedderChoice } from '../../../src/lib/core/api/embedder';
import { describeModel, modelRoot } from '../../../src/lib/models/model-files';
import { cacheModelLibrary, cacheRerankerLibrary, MODEL_CACHE, PROVIDED_MODELS_PATH } from '../../../src/lib/models/model-library';

const ROOT = resolve('static/test-models');
const ORIGIN = 'http://vault.test';

/**
 * The Cache API as the browser has it, in memory; relative keys resolve against the origin. (That
 * transformers.js then loads the stored files is shown in the browser: e2e/index.spec.ts.)
 */
function memoryCaches() {
  const stores = new Map<string, Map<string, { body: Uint8Array; headers: Headers }>>();
  const key = (input: RequestInfo | URL) => new URL(typeof input === 'string' || input instanceof URL ? input : input.url, ORIGIN).href;
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, { body: Uint8Array; headers: Headers }>();
    stores.set(name, store);
    return {
      keys: async () => [...store.keys()].map((url) => new Request(url)),
      match: async (input: RequestInfo | URL) => {
        const hit = store.get(key(input));
        return hit ? new Response(hit.body as BodyInit, { headers: hit.headers }) : undefined;
      },
      put: async (input: RequestInfo | URL, response: Response) => {
        store.set(key(input), { body: new Uint8Array(await response.arrayBuffer()), headers: new Headers(response.headers) });
      },
      delete: async (input: RequestInfo | URL) => store.delete(key(input)),
    };
  };
  return { stores, caches: { open } as unknown as CacheStorage, open };
}

function modelFiles(prefix: string, folder = 'tiny-bert'): { path: string; blob: Blob }[] {
  const dir = join(ROOT, folder);
  const out: { path: string; blob: Blob }[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path: `${prefix}${relative(dir, path)}`, blob: new Blob([readFileSync(path)]) });
    }
  };
  walk(dir);
  return out;
}

function library() {
  const memory = memoryCaches();
  let registry: EmbedderChoice[] = [];
  const lib = cacheModelLibrary({
    caches: memory.caches,
    fetch: () => Promise.resolve(new Response('not found', { status: 404 })),
    origin: ORIGIN,
    registry: { get: async () => registry, set: async (c) => void (registry = c) },
  });
  return { lib, memory, registry: () => registry };
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'tiny-bert', 'onnx', 'model.onnx'))) makeTestModel(ROOT);
  if (!existsSync(join(ROOT, 'tiny-cross-encoder', 'onnx', 'model.onnx'))) makeTestCrossEncoder(ROOT);
});

describe('model files a person provides', () => {
  it('reads a ZIP of an export folder: root found, width from config.json, dtype from the ONNX file name', async () => {
    const { lib, memory, registry } = library();
    const zip = zipSync(
      Object.fromEntries(
        await Promise.all(modelFiles('exports/tiny-bert/').map(async (f) => [f.path, new Uint8Array(await f.blob.arrayBuffer())])),
      ),
    );
    const choice = await lib.importFiles([{ path: 'tiny-bert.zip', blob: new Blob([zip]) }]);
    expect(choice).toEqual({
      kind: 'transformers',
      spec: { modelId: 'local/tiny-bert', dims: 32, pooling: 'mean', dtype: 'fp32', queryPrefix: '' },
      origin: 'files',
      path: PROVIDED_MODELS_PATH,
    });
    const keys = [...memory.stores.get(MODEL_CACHE)!.keys()].sort();
    expect(keys).toEqual(
      ['config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json'].map(
        (f) => `${ORIGIN}/local-models/local/tiny-bert/${f}`,
      ),
    );
    expect(registry()).toEqual([choice]);
    const size = await lib.size(choice);
    expect(size.files).toBe(4);
    expect(size.bytes).toBe(modelFiles('').reduce((n, f) => n + f.blob.size, 0));
    expect((await lib.known()).map((c) => (c.kind === 'transformers' ? `${c.origin}:${c.spec.modelId}` : c.kind))).toEqual([
      'hub:Snowflake/snowflake-arctic-embed-xs',
      'files:local/tiny-bert',
    ]);
    await lib.remove(choice);
    expect(memory.stores.get(MODEL_CACHE)!.size).toBe(0);
    expect(registry()).toEqual([]);
  });

  it('reads a folder picked with webkitdirectory the same way, with overrides winning', async () => {
    const { lib } = library();
    const choice = await lib.importFiles(modelFiles('tiny-bert/'), { queryPrefix: 'query: ', pooling: 'cls' });
    expect(choice.kind === 'transformers' && choice.spec).toMatchObject({
      modelId: 'local/tiny-bert',
      pooling: 'cls',
      queryPrefix: 'query: ',
    });
  });

  it('says what is missing', () => {
    const bytes = new TextEncoder().encode('{"hidden_size": 8}');
    expect(() => modelRoot([{ path: 'x/readme.md', bytes }])).toThrow(/No config\.json/u);
    const noTokenizer = modelRoot([{ path: 'm/config.json', bytes }]);
    expect(() => describeModel(noTokenizer.name, noTokenizer.files)).toThrow(/tokenizer\.json/u);
    const noWeights = modelRoot([
      { path: 'm/config.json', bytes },
      { path: 'm/tokenizer.json', bytes },
    ]);
    expect(() => describeModel(noWeights.name, noWeights.files)).toThrow(/ONNX weights/u);
    const quantized = modelRoot([
      { path: 'm/config.json', bytes },
      { path: 'm/tokenizer.json', bytes },
      { path: 'm/onnx/model_quantized.onnx', bytes },
      { path: 'm/onnx/model.onnx', bytes },
    ]);
    expect(describeModel(quantized.name, quantized.files)).toMatchObject({ dims: 8, dtype: 'q8', modelId: 'local/m' });
  });
});

describe('the reranker library (the same cache and list code as the embedders)', () => {
  function rerankers() {
    const memory = memoryCaches();
    let registry: RerankerChoice[] = [];
    const served = new Set(['/test-models/tiny-cross-encoder/config.json']);
    const lib = cacheRerankerLibrary({
      caches: memory.caches,
      fetch: (input) =>
        Promise.resolve(
          served.has(String(input))
            ? new Response('{}', { headers: { 'content-type': 'application/json' } })
            : new Response('not found', { status: 404 }),
        ),
      origin: ORIGIN,
      registry: { get: async () => registry, set: async (c) => void (registry = c) },
    });
    return { lib, memory, registry: () => registry };
  }

  it('lists the hub rerankers with their sizes, and the test cross-encoder the app serves', async () => {
    const { lib } = rerankers();
    const known = await lib.known();
    expect(known.map((c) => `${c.origin}:${c.spec.modelId}`)).toEqual([
      'hub:Xenova/ms-marco-TinyBERT-L-2-v2',
      'hub:Xenova/ms-marco-MiniLM-L-6-v2',
      'hub:Xenova/bge-reranker-base',
      'origin:tiny-cross-encoder',
    ]);
    expect(known.filter((c) => c.origin === 'hub').every((c) => (c.spec.downloadBytes ?? 0) > 1_000_000)).toBe(true);
  });

  it('stores a provided cross-encoder ZIP in the model cache, sizes it and deletes it', async () => {
    const { lib, memory, registry } = rerankers();
    const zip = zipSync(
      Object.fromEntries(
        await Promise.all(
          modelFiles('my-reranker/', 'tiny-cross-encoder').map(async (f) => [f.path, new Uint8Array(await f.blob.arrayBuffer())]),
        ),
      ),
    );
    const choice = await lib.importFiles([{ path: 'my-reranker.zip', blob: new Blob([zip]) }]);
    expect(choice).toMatchObject({
      kind: 'reranker',
      spec: { modelId: 'local/my-reranker', dtype: 'fp32' },
      origin: 'files',
      path: PROVIDED_MODELS_PATH,
    });
    expect(registry()).toEqual([choice]);
    expect((await lib.size(choice)).files).toBe(4);
    expect((await lib.known()).at(-1)).toEqual(choice);
    await lib.remove(choice);
    expect(memory.stores.get(MODEL_CACHE)!.size).toBe(0);
    expect(registry()).toEqual([]);
  });

  it('refuses an embedding model as a reranker, with a clear error', async () => {
    const { lib } = rerankers();
    await expect(lib.importFiles(modelFiles('tiny-bert/'))).rejects.toThrow(/not a cross-encoder/u);
  });
});
