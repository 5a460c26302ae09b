import { fileURLToPath } from 'node:url';
import { sveltekit } from '@sveltejs/kit/vite';
import { build, defineConfig, type Plugin } from 'vite';
import { bundleReport } from './scripts/bundle-report.js';
import { hnswlibNoEval } from './scripts/hnswlib-no-eval.js';
import { requestPath, securityHeaders } from './scripts/security-headers.js';

/**
 * Adds our headers to the dev and preview servers (vite preview ignores `preview.headers`). The
 * Content-Security-Policy of pages comes from SvelteKit itself there (`kit.csp` in svelte.config.js).
 */
function headers(): Plugin {
  const apply = (req: { url?: string }, res: { setHeader(name: string, value: string): void }) => {
    for (const [name, value] of Object.entries(securityHeaders(requestPath(req.url)))) res.setHeader(name, value);
  };
  return {
    name: 'engram-headers',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        apply(req, res);
        next();
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        apply(req, res);
        next();
      });
    },
  };
}

const BOOKMARKLET_ENTRY = fileURLToPath(new URL('./src/lib/bookmarklet/main.ts', import.meta.url));
const BOOKMARKLET_MODULE = 'virtual:engram-bookmarklet';

/**
 * Bundles the bookmarklet (src/lib/bookmarklet/main.ts and what it imports) into one
 * minified, self-contained IIFE. The capture page turns it into a `javascript:` URL for its own
 * origin (src/lib/bookmarklet/href.ts).
 */
export async function buildBookmarklet(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      target: 'es2020',
      lib: { entry: BOOKMARKLET_ENTRY, formats: ['iife'], name: 'engramBookmarklet', fileName: 'bookmarklet' },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  for (const result of results) {
    if (!('output' in result)) continue;
    const chunk = result.output.find((item) => item.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code.trim();
  }
  throw new Error('The bookmarklet build produced no code.');
}

/** Serves the built bookmarklet as `virtual:engram-bookmarklet` (a string), in dev and in builds. */
function bookmarkletPlugin(): Plugin {
  const resolved = `\0${BOOKMARKLET_MODULE}`;
  return {
    name: 'engram-bookmarklet',
    resolveId(source) {
      return source === BOOKMARKLET_MODULE ? resolved : undefined;
    },
    async load(id) {
      if (id !== resolved) return undefined;
      this.addWatchFile(BOOKMARKLET_ENTRY);
      return `export default ${JSON.stringify(await buildBookmarklet())};`;
    },
  };
}

export default defineConfig({
  plugins: [sveltekit(), headers(), bookmarkletPlugin(), hnswlibNoEval(), bundleReport()],
  // Workers are bundled separately: they need the plugins that touch their dependencies too.
  worker: { format: 'es', plugins: () => [hnswlibNoEval(), bundleReport()] },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'hnswlib-wasm'] },
});
