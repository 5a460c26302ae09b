import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { CSP_DIRECTIVES } from './scripts/csp.js';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true },
  kit: {
    // SPA: every route is rendered in the browser; unknown paths fall back to the shell.
    adapter: adapter({ pages: 'build', assets: 'build', fallback: 'index.html', strict: true }),
    // Absolute asset paths: an offline deep link served from the cached shell must still find _app/.
    paths: { relative: false },
    // Registered by hand (src/lib/client/sw-update.svelte.ts) so an update waits for the person.
    serviceWorker: { register: false },
    // Content-Security-Policy (scripts/csp.js, docs/SECURITY.md): Kit hashes its inline bootstrap
    // script and writes the policy as a meta tag into the static build; serve.js sends it as a header.
    csp: { mode: 'hash', directives: CSP_DIRECTIVES },
    typescript: {
      config: (tsconfig) => {
        tsconfig.include.push('../workers/**/*.ts', '../e2e/**/*.ts', '../scripts/**/*.ts');
        tsconfig.include.push('../vitest.config.ts', '../playwright.config.ts');
        return tsconfig;
      },
    },
  },
};

export default config;
