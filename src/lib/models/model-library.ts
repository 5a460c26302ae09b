/**
 * The neural models this browser can run, and their files in the Cache API. transformers.js
 * caches what it downloads in `transformers-cache` (the service worker never deletes it) under the
 * hub URL; a model loaded from the app's origin is cached under its local path. Files a person
 * provides are written into the same cache under the local path transformers.js looks up first
 * (`<localModelPath><modelId>/<file>`, before any network request), so they load offline with no
 * custom cache: env.useCustomCache would only be needed for storage other than the Cache API.
 */
import type { EmbedderChoice, EmbeddingModelSpec } from '../core/api/embedder';
import type { ModelFileInput } from '../core/api/index-api';
import type { RerankerChoice, RerankerModelSpec } from '../core/api/reranker';
import { describeModel, describeReranker, type ModelFile, modelRoot, unzipModel } from './model-files';
import { DEFAULT_EMBEDDING_MODEL, TINY_TEST_MODEL } from './embedding-models';
import { hubRerankerChoices, TINY_TEST_RERANKER } from './reranker-models';

export const MODEL_CACHE = 'transformers-cache';
export const HUB = 'https://huggingface.co/';
/** Where provided model files live (a path no server route uses; only the cache answers it). */
export const PROVIDED_MODELS_PATH = '/local-models/';
/** Where the generated test model is served when it was generated before the build. */
export const TEST_MODELS_PATH = '/test-models/';

export interface ModelFilesSize {
  bytes: number;
  files: number;
}

/**
 * The neural models of one kind this browser can run and their cached files: the embedders
 * (`cacheModelLibrary`) and the rerankers (`cacheRerankerLibrary`) share it all but the list of
 * hub models, the test model and how a provided folder is described.
 */
export interface ModelLibraryOf<C, S> {
  /** Models to offer: the hub models, a test model the app serves, provided ones. */
  known(): Promise<C[]>;
  /** Bytes and files of a model in the cache (zero when not cached). */
  size(choice: C): Promise<ModelFilesSize>;
  remove(choice: C): Promise<void>;
  importFiles(files: readonly ModelFileInput[], overrides?: Partial<S>): Promise<C>;
}

export type ModelLibrary = ModelLibraryOf<EmbedderChoice, EmbeddingModelSpec>;
export type RerankerLibrary = ModelLibraryOf<RerankerChoice, RerankerModelSpec>;

export interface ChoiceRegistry<C = EmbedderChoice> {
  get(): Promise<C[]>;
  set(choices: C[]): Promise<void>;
}

export interface LibraryDeps<C = EmbedderChoice> {
  caches: CacheStorage;
  fetch: typeof fetch;
  /** The app's origin, e.g. `http://127.0.0.1:4173`. */
  origin: string;
  /** Provided models, remembered across sessions. */
  registry: ChoiceRegistry<C>;
}

/** The URL prefix every cached file of a model starts with. */
export function cachePrefix(choice: EmbedderChoice | RerankerChoice, origin: string): string | null {
  if (choice.kind === 'lexical') return null;
  if (choice.origin === 'hub') return `${HUB}${choice.spec.modelId}/resolve/`;
  return `${origin}${choice.path ?? '/'}${choice.spec.modelId}/`;
}

function sameModel(a: EmbedderChoice | RerankerChoice, b: EmbedderChoice | RerankerChoice): boolean {
  if (a.kind === 'lexical' || b.kind === 'lexical') return a.kind === b.kind;
  return a.kind === b.kind && a.spec.modelId === b.spec.modelId && a.spec.dtype === b.spec.dtype && a.origin === b.origin;
}

async function readInputs(files: readonly ModelFileInput[]): Promise<ModelFile[]> {
  const read = await Promise.all(files.map(async (f) => ({ path: f.path, bytes: new Uint8Array(await f.blob.arrayBuffer()) })));
  if (read.length === 1 && /\.zip$/iu.test(read[0]!.path)) return unzipModel(read[0]!.bytes);
  return read;
}

interface LibraryKind<C extends EmbedderChoice | RerankerChoice, S> {
  /** Hub models offered whatever the cache holds. */
  hub(): C[];
  /** The generated test model, when the app serves it. */
  test: { modelId: string; choice: () => C };
  /** A provided folder as a choice stored under PROVIDED_MODELS_PATH. */
  describe(name: string, files: ModelFile[], overrides: Partial<S> | undefined): C;
}

function cacheLibrary<C extends EmbedderChoice | RerankerChoice, S>(deps: LibraryDeps<C>, kind: LibraryKind<C, S>): ModelLibraryOf<C, S> {
  const open = () => deps.caches.open(MODEL_CACHE);
  const keysUnder = async (prefix: string) => (await (await open()).keys()).filter((r) => r.url.startsWith(prefix));

  async function testModel(): Promise<C | null> {
    try {
      const response = await deps.fetch(`${TEST_MODELS_PATH}${kind.test.modelId}/config.json`);
      if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return null;
      await response.json();
      return kind.test.choice();
    } catch {
      return null;
    }
  }

  return {
    async known() {
      const out: C[] = kind.hub();
      const test = await testModel();
      if (test) out.push(test);
      for (const provided of await deps.registry.get()) if (!out.some((c) => sameModel(c, provided))) out.push(provided);
      return out;
    },
    async size(choice) {
      const prefix = cachePrefix(choice, deps.origin);
      if (!prefix) return { bytes: 0, files: 0 };
      const cache = await open();
      let bytes = 0;
      const keys = await keysUnder(prefix);
      for (const key of keys) {
        const response = await cache.match(key);
        const length = Number(response?.headers.get('content-length') ?? NaN);
        bytes += Number.isFinite(length) ? length : ((await response?.blob())?.size ?? 0);
      }
      return { bytes, files: keys.length };
    },
    async remove(choice) {
      const prefix = cachePrefix(choice, deps.origin);
      if (!prefix) return;
      const cache = await open();
      for (const key of await keysUnder(prefix)) await cache.delete(key);
      if (choice.kind !== 'lexical' && choice.origin === 'files') {
        await deps.registry.set((await deps.registry.get()).filter((c) => !sameModel(c, choice)));
      }
    },
    async importFiles(inputs, overrides) {
      const { name, files } = modelRoot(await readInputs(inputs));
      const choice = kind.describe(name, files, overrides);
      const cache = await open();
      for (const file of files) {
        const headers = {
          'content-type': file.path.endsWith('.json') ? 'application/json' : 'application/octet-stream',
          'content-length': String(file.bytes.byteLength),
        };
        await cache.put(`${cachePrefix(choice, deps.origin)}${file.path}`, new Response(file.bytes as BodyInit, { headers }));
      }
      const registry = (await deps.registry.get()).filter((c) => !sameModel(c, choice));
      await deps.registry.set([...registry, choice]);
      return choice;
    },
  };
}

export function cacheModelLibrary(deps: LibraryDeps): ModelLibrary {
  return cacheLibrary<EmbedderChoice, EmbeddingModelSpec>(deps, {
    hub: () => [{ kind: 'transformers', spec: DEFAULT_EMBEDDING_MODEL, origin: 'hub' }],
    test: {
      modelId: TINY_TEST_MODEL.modelId,
      choice: () => ({ kind: 'transformers', spec: TINY_TEST_MODEL, origin: 'origin', path: TEST_MODELS_PATH }),
    },
    describe: (name, files, overrides) => ({
      kind: 'transformers',
      spec: describeModel(name, files, overrides),
      origin: 'files',
      path: PROVIDED_MODELS_PATH,
    }),
  });
}

/** The rerankers: the hub list (reranker-models.ts), the generated test cross-encoder, provided ones. */
export function cacheRerankerLibrary(deps: LibraryDeps<RerankerChoice>): RerankerLibrary {
  return cacheLibrary<RerankerChoice, RerankerModelSpec>(deps, {
    hub: hubRerankerChoices,
    test: {
      modelId: TINY_TEST_RERANKER.modelId,
      choice: () => ({ kind: 'reranker', spec: TINY_TEST_RERANKER, origin: 'origin', path: TEST_MODELS_PATH }),
    },
    describe: (name, files, overrides) => ({
      kind: 'reranker',
      spec: describeReranker(name, files, overrides),
      origin: 'files',
      path: PROVIDED_MODELS_PATH,
    }),
  });
}

/** Node (CLI, tests): no browser cache; the models a caller names. */
export function staticModelLibrary<C = EmbedderChoice, S = EmbeddingModelSpec>(choices: C[]): ModelLibraryOf<C, S> {
  return {
    known: () => Promise.resolve(choices),
    size: () => Promise.resolve({ bytes: 0, files: 0 }),
    remove: () => Promise.resolve(),
    importFiles: () => Promise.reject(new Error('Providing model files needs the browser cache.')),
  };
}
