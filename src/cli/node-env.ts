/**
 * Makes the browser-targeted store and models run in Node: an in-memory IndexedDB (the vault lives
 * for one command unless written to a vault file) and the shim hnswlib-wasm needs (it is compiled
 * for the web and probes `importScripts`). `window` is deliberately not defined: transformers.js
 * uses it to tell a browser from Node.
 */
import 'fake-indexeddb/auto';

const scope = globalThis as { importScripts?: (...urls: string[]) => void };
scope.importScripts ??= () => {
  throw new Error('importScripts is not available in Node');
};
