// Every Node test gets an in-memory IndexedDB, so store code runs unchanged.
import 'fake-indexeddb/auto';

// hnswlib-wasm is compiled for the web and probes `importScripts` at load: give Node a throwing
// shim (never a `window`: transformers.js takes that as a browser).
const scope = globalThis as { importScripts?: (...urls: string[]) => void };
scope.importScripts ??= () => {
  throw new Error('importScripts is not available in Node');
};
