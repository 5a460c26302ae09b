// Headers the app needs from whatever serves it: cross-origin isolation (multi-threaded WASM needs
// SharedArrayBuffer) and the basic hardening set. Used by vite dev/preview and scripts/serve.js.
// The Content-Security-Policy is separate (scripts/csp.js): it depends on the build's script hash.

/**
 * Pages a chat site opens with `window.open` and talks to with `postMessage` (the bookmarklet's
 * handoff). `Cross-Origin-Opener-Policy: same-origin` would put them in a new browsing context
 * group: `window.opener` would be null and the chat page's handle closed, so the handoff could
 * never happen. They get `unsafe-none` instead, and are therefore not cross-origin isolated
 * (docs/SECURITY.md). Exact paths only.
 */
export const OPENER_PAGES = ['/capture', '/capture/'];

/**
 * @param {string} [pathname] the request's path (no query); the COOP header depends on it
 * @returns {Record<string, string>}
 */
export function securityHeaders(pathname = '/') {
  return {
    'Cross-Origin-Opener-Policy': OPENER_PAGES.includes(pathname) ? 'unsafe-none' : 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

/**
 * The path of a request URL such as `/capture?text=hi`, without query or fragment.
 *
 * @param {string | undefined} url
 */
export function requestPath(url) {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return '/';
  }
}
