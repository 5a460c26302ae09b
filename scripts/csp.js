// The app's Content-Security-Policy: one list of directives, used by SvelteKit (`kit.csp` in
// svelte.config.js, which adds the hash of its inline bootstrap script and writes the policy as a
// <meta http-equiv> tag into the static build) and by the servers that send it as a header
// (scripts/serve.js, and Kit itself in `vite dev` / `vite preview`). docs/SECURITY.md explains it.

/**
 * Hosts the model runtimes download from, and only when the person enables a model in Settings:
 * transformers.js fetches from huggingface.co, which redirects to its CDN / Xet storage hosts;
 * WebLLM fetches weights from huggingface.co and its compiled model libraries (wasm) from
 * raw.githubusercontent.com. A static build cannot change its policy at run time, so every host
 * a person may enable is listed; the app itself never contacts them unless asked to.
 */
export const MODEL_HOSTS = /** @type {const} */ ([
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
  'https://raw.githubusercontent.com',
]);

/**
 * An OpenAI-compatible model server on the person's own machine (DESIGN: "an optional
 * OpenAI-compatible endpoint on the user's own machine"). Loopback only.
 */
export const LOCAL_MODEL_HOSTS = /** @type {const} */ (['http://localhost:*', 'http://127.0.0.1:*']);

/**
 * Directives in SvelteKit's `kit.csp.directives` form (keywords unquoted; Kit quotes them).
 * - script-src: our own files, WebAssembly compilation (hnswlib, ONNX Runtime, WebLLM) and,
 *   added by Kit at build time, the sha256 of its one inline bootstrap script. Nothing else inline.
 * - style-src 'unsafe-inline': Svelte sets style attributes and app.html has one; styles cannot run
 *   code, and every URL a style could load is still limited to 'self' by img-src/font-src.
 * - frame-ancestors only works as a header: Kit drops it from the meta tag.
 * - require-trusted-types-for 'script' with the three policies the app creates (trusted-types).
 *
 * @type {NonNullable<NonNullable<import('@sveltejs/kit').KitConfig['csp']>['directives']>}
 */
export const CSP_DIRECTIVES = {
  'default-src': ['self'],
  'script-src': ['self', 'wasm-unsafe-eval'],
  'style-src': ['self', 'unsafe-inline'],
  'worker-src': ['self', 'blob:'],
  'connect-src': ['self', ...MODEL_HOSTS, ...LOCAL_MODEL_HOSTS],
  'img-src': ['self', 'data:', 'blob:'],
  'font-src': ['self'],
  'manifest-src': ['self'],
  'object-src': ['none'],
  'base-uri': ['self'],
  'form-action': ['self'],
  'frame-ancestors': ['none'],
  // Trusted Types: no string reaches an HTML or script sink unless a policy let it; the policies
  // allowed are Svelte's, DOMPurify's and the app's default one (src/lib/trusted-types.ts).
  'require-trusted-types-for': ['script'],
  'trusted-types': ['default', 'svelte-trusted-html', 'dompurify'],
};

/** Directives a <meta http-equiv> policy cannot carry (browsers ignore them there). */
export const HEADER_ONLY_DIRECTIVES = ['frame-ancestors', 'report-uri', 'sandbox'];

const META_PATTERN = /<meta http-equiv="content-security-policy" content="([^"]*)"\s*\/?>/i;

/** @param {string} value */
function unescapeAttribute(value) {
  return value.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * The policy of a built page, read from the meta tag SvelteKit wrote into it (so the header and
 * the tag can never disagree about the bootstrap script's hash). Null when the page has none.
 *
 * @param {string} html
 * @returns {string | null}
 */
export function metaPolicy(html) {
  const match = META_PATTERN.exec(html);
  return match ? unescapeAttribute(match[1] ?? '') : null;
}

/**
 * The header for a built page: its meta policy plus the header-only directives.
 *
 * @param {string} html
 * @returns {string}
 */
export function cspHeaderFor(html) {
  const meta = metaPolicy(html);
  if (!meta) throw new Error('The built page has no Content-Security-Policy meta tag: is kit.csp set in svelte.config.js?');
  const extra = HEADER_ONLY_DIRECTIVES.flatMap((name) => {
    const values = /** @type {Record<string, string[] | undefined>} */ (CSP_DIRECTIVES)[name];
    return values ? [`${name} ${values.map((v) => (v === 'none' || v === 'self' ? `'${v}'` : v)).join(' ')}`] : [];
  });
  return [meta, ...extra].join('; ');
}
