import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { hnswlibNoEval } from './scripts/hnswlib-no-eval.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The tests run the same eval-free hnswlib-wasm the app ships (scripts/hnswlib-no-eval.js);
  // svelte() compiles the rune classes (*.svelte.ts) the client tests construct.
  plugins: [svelte(), hnswlibNoEval()],
  resolve: {
    alias: {
      $lib: here('./src/lib'),
      // hnswlib-wasm ships only a `module` field; point Node at the file itself.
      'hnswlib-wasm': here('./node_modules/hnswlib-wasm/dist/hnswlib.js'),
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Worker threads start a test file faster than forked processes (unit wall 360 s -> 286 s on
    // 2 cores, the same 1,416 tests); every file still runs in its own isolated module graph.
    pool: 'threads',
    // Vitest's default outside watch mode is one worker fewer than the cores: one on a 2-core
    // machine like CI's, where two workers took the unit wall from 256 s to 174 s (same 1,465
    // tests). Never fewer than two; on more cores, the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    server: { deps: { inline: [/hnswlib-wasm/] } },
  },
});
