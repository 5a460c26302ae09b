import { describe, expect, it } from 'vitest';

/**
 * The app's CSP forbids evaluating strings (no 'unsafe-eval'). hnswlib-wasm's embind bindings
 * compile their invokers with `new Function` unless scripts/hnswlib-no-eval.js rewrote them; the
 * test suite loads the rewritten module (vitest.config.ts), so here any use of the Function
 * constructor fails the test.
 */
describe('hnswlib-wasm without eval', () => {
  it('builds, searches and persists an index with the Function constructor forbidden', async () => {
    const original = globalThis.Function;
    const calls: string[] = [];
    globalThis.Function = new Proxy(original, {
      apply: (_target, _this, args: unknown[]) => {
        calls.push(String(args.at(-1)).slice(0, 60));
        throw new EvalError('Function constructor called');
      },
      construct: (_target, args: unknown[]) => {
        calls.push(String(args.at(-1)).slice(0, 60));
        throw new EvalError('Function constructor called');
      },
    });
    try {
      const { VectorIndex } = await import('../../../src/lib/store/vector-index');
      const { memoryManifestStore } = await import('../../../src/lib/store/vector-index-manifest');
      const index = await VectorIndex.create({ name: 'no-eval', modelId: 'm', dims: 4, manifests: memoryManifestStore() });
      index.add([
        { recordId: 'a', contentHash: '0'.repeat(64), vector: Float32Array.of(1, 0, 0, 0) },
        { recordId: 'b', contentHash: '1'.repeat(64), vector: Float32Array.of(0, 1, 0, 0) },
      ]);
      expect(index.search(Float32Array.of(0.9, 0.1, 0, 0), 1)[0]!.recordId).toBe('a');
      await index.save();
    } finally {
      globalThis.Function = original;
    }
    expect(calls).toEqual([]);
  });

  it('the rewrite finds its line in the installed hnswlib-wasm', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { removeEval } = await import('../../../scripts/hnswlib-no-eval.js');
    const file = readdirSync('node_modules/hnswlib-wasm/dist').find((f) => /^hnswlib-[0-9a-f]+\.js$/u.test(f))!;
    const rewritten = removeEval(readFileSync(`node_modules/hnswlib-wasm/dist/${file}`, 'utf8'));
    expect(rewritten).not.toContain('newFunc(Function');
  });
});
