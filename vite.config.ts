import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig, type Plugin } from 'vite';
import { securityHeaders } from './scripts/security-headers.js';

/** Adds our headers to the dev and preview servers (vite preview ignores `preview.headers`). */
function headers(): Plugin {
  const apply = (res: { setHeader(name: string, value: string): void }) => {
    for (const [name, value] of Object.entries(securityHeaders())) res.setHeader(name, value);
  };
  return {
    name: 'engram-headers',
    configureServer(server) {
      server.middlewares.use((_req, res, next) => {
        apply(res);
        next();
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use((_req, res, next) => {
        apply(res);
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [sveltekit(), headers()],
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'hnswlib-wasm'] },
});
