import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/** Layer walls (DESIGN.md): dependencies point routes/ui -> client -> workers -> store/models -> core. */
const forbid = (groups, message) => ['error', { patterns: [{ group: groups, message }] }];

export default ts.config(
  {
    ignores: ['build/', '.svelte-kit/', 'node_modules/', 'test-results/', 'playwright-report/', 'static/', 'tests/fixtures/'],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.ts', '**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        extraFileExtensions: ['.svelte'],
        parser: ts.parser,
        svelteConfig,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'svelte/no-at-html-tags': 'error',
    },
  },
  {
    // Kit keeps the service worker out of the app's tsconfig (it needs the webworker lib).
    files: ['src/service-worker.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.sw.json' } },
  },
  {
    files: ['src/lib/core/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          '**/store/**',
          '**/models/**',
          '**/client/**',
          '**/ui/**',
          '**/routes/**',
          '$lib/store/**',
          '$lib/models/**',
          '$lib/client/**',
          '$lib/ui/**',
          'dexie',
          'comlink',
          'svelte',
          'svelte/*',
          '@huggingface/transformers',
          '@mlc-ai/web-llm',
          'hnswlib-wasm',
        ],
        'core is pure domain logic: it imports nothing from store, models, client, ui or routes (DESIGN.md).',
      ),
    },
  },
  {
    files: ['src/lib/store/**', 'src/lib/models/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['**/client/**', '**/ui/**', '**/routes/**', '$lib/client/**', '$lib/ui/**', 'svelte', 'svelte/*'],
        'store and models sit below the client and UI: they may import core only.',
      ),
    },
  },
  {
    files: ['workers/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['**/client/**', '**/ui/**', '**/routes/**', '$lib/client/**', '$lib/ui/**', 'svelte', 'svelte/*'],
        'worker entry files wire core, store and models; they import no main-thread UI code.',
      ),
    },
  },
  {
    files: ['src/lib/ui/**', 'src/routes/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['dexie', '**/store/**', '$lib/store/**', '**/workers/**'],
        'UI and routes never touch Dexie or the store: go through src/lib/client.',
      ),
    },
  },
  {
    files: ['src/lib/ui/SafeHtml.svelte'],
    rules: { 'svelte/no-at-html-tags': 'off' },
  },
  {
    files: ['tests/**', 'e2e/**', 'scripts/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
