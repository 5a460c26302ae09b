// Node module resolution hook: `hnswlib-wasm` -> its ES module file (the package has no `main` or
// `exports`, only the bundler-only `module` field). Vitest does the same with an alias.
const TARGETS = { 'hnswlib-wasm': new URL('../node_modules/hnswlib-wasm/dist/hnswlib.js', import.meta.url).href };

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<unknown>} next
 */
export async function resolve(specifier, context, next) {
  const target = /** @type {Record<string, string>} */ (TARGETS)[specifier];
  if (target) return { url: target, format: 'module', shortCircuit: true };
  return next(specifier, context);
}
