// Every Node test runs on the same Node environment as the CLI: an in-memory IndexedDB (store code
// runs unchanged) and the importScripts shim hnswlib-wasm probes (src/cli/node-env.ts).
import '../src/cli/node-env';
