// A Vite plugin that, only when ENGRAM_BUNDLE_REPORT names a file, appends one JSON line per
// emitted script (page chunks and worker bundles) with the minified size each module contributes
// to it. tests/bench/bundle-breakdown.ts builds with it to show what the first load is made of.
// SvelteKit runs its client build from the config file, so the plugin has to live here.
import { appendFileSync } from 'node:fs';

/** @returns {import('vite').Plugin} */
export function bundleReport() {
  return {
    name: 'engram-bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const out = process.env.ENGRAM_BUNDLE_REPORT;
      if (!out) return;
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        /** @type {Record<string, number>} */
        const modules = {};
        for (const [id, info] of Object.entries(item.modules)) modules[id] = info.renderedLength;
        appendFileSync(out, `${JSON.stringify({ file: item.fileName, bytes: item.code.length, modules })}\n`);
      }
    },
  };
}
