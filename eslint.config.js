import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * Layer walls (DESIGN.md): dependencies point routes/ui -> client -> (comlink) -> workers -> services ->
 * store/models -> core. The bookmarklet is its own island over core.
 */
const forbid = (groups, message) => ['error', { patterns: [{ group: groups, message }] }];

/** Browser globals core must not touch (it also runs in Node and in workers). */
const DOM_GLOBALS = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'HTMLElement',
  'Element',
  'Node',
  'DOMParser',
  'MutationObserver',
  'getComputedStyle',
  'alert',
];

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
          '**/services/**',
          '**/client/**',
          '**/ui/**',
          '**/routes/**',
          '**/bookmarklet/**',
          '**/workers/**',
          '$lib/*',
          '$lib/*/**',
          '!$lib/core/**',
          'dexie',
          'comlink',
          'svelte',
          'svelte/*',
          '@huggingface/transformers',
          '@mlc-ai/web-llm',
          'hnswlib-wasm',
        ],
        'core is pure domain logic: it imports nothing from store, models, services, client, ui, routes or workers (DESIGN.md).',
      ),
      // No DOM in core: it runs unchanged in Node, in workers and on the main thread.
      'no-restricted-globals': [
        'error',
        ...DOM_GLOBALS.map((name) => ({ name, message: 'core has no DOM: pass what it needs in as data.' })),
      ],
    },
  },
  {
    files: ['src/lib/bookmarklet/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          '**/store/**',
          '**/models/**',
          '**/services/**',
          '**/client/**',
          '**/ui/**',
          '**/routes/**',
          '**/workers/**',
          'dexie',
          'comlink',
          'svelte',
          'svelte/*',
        ],
        'the bookmarklet runs inside the chat page: it may import core only, and is bundled on its own (vite.config.ts).',
      ),
    },
  },
  {
    files: ['src/lib/store/**', 'src/lib/models/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          '**/services/**',
          '**/client/**',
          '**/ui/**',
          '**/routes/**',
          '**/workers/**',
          '**/bookmarklet/**',
          '$lib/client/**',
          '$lib/ui/**',
          'svelte',
          'svelte/*',
        ],
        'store and models sit below services and the client: they may import core only.',
      ),
    },
  },
  {
    files: ['src/lib/services/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          '**/client/**',
          '**/ui/**',
          '**/routes/**',
          '**/workers/**',
          '**/bookmarklet/**',
          '$lib/client/**',
          '$lib/ui/**',
          'svelte',
          'svelte/*',
        ],
        'services are plain classes over store, models and core: no worker globals, no main-thread code (DESIGN.md).',
      ),
      'no-restricted-globals': [
        'error',
        ...['self', 'postMessage', 'importScripts', 'onmessage', ...DOM_GLOBALS].map((name) => ({
          name,
          message: 'services take what their environment has as parameters (the worker entry supplies it).',
        })),
      ],
    },
  },
  {
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['**/workers/**', '**/client/**', '**/ui/**', '**/routes/**', 'svelte', 'svelte/*'],
        'the CLI runs the same services as the app, in process: it imports no worker or main-thread code.',
      ),
    },
  },
  {
    files: ['workers/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['**/client/**', '**/ui/**', '**/routes/**', '$lib/client/**', '$lib/ui/**', 'svelte', 'svelte/*'],
        'worker entry files construct a service and expose it; they import no main-thread code.',
      ),
    },
  },
  {
    files: ['src/lib/client/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          '**/store/*',
          '!**/store/views',
          '**/store/views/*',
          '!**/store/views/vault-views',
          '$lib/store/**',
          '**/services/**',
          '**/workers/**',
          '**/ui/**',
          '**/routes/**',
          '$lib/services/**',
          '$lib/ui/**',
        ],
        'the client reads the vault through store/views/vault-views.ts and writes through the workers (their locks and rollback); it imports no service or worker code.',
      ),
    },
  },
  {
    files: ['src/lib/ui/**', 'src/routes/**'],
    rules: {
      'no-restricted-imports': forbid(
        ['dexie', '**/store/**', '$lib/store/**', '**/workers/**', '**/services/**', '$lib/services/**', '**/models/**', '$lib/models/**'],
        'UI and routes never touch Dexie, the store, services or models: go through src/lib/client.',
      ),
    },
  },
  {
    files: ['src/lib/ui/SafeHtml.svelte'],
    rules: { 'svelte/no-at-html-tags': 'off' },
  },
  {
    files: ['tests/**', 'e2e/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
