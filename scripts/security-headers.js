// Headers the app needs from whatever serves it: cross-origin isolation (multi-threaded WASM needs
// SharedArrayBuffer) and the basic hardening set. Used by vite dev/preview and scripts/serve.js.

/** @returns {Record<string, string>} */
export function securityHeaders() {
  return {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}
