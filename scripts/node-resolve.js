// Registers scripts/node-resolve-hooks.js before the entry module's imports are resolved
// (`tsx --import ./scripts/node-resolve.js ...`): hnswlib-wasm declares only a `module` field,
// which browsers' bundlers read and Node ignores.
import { register } from 'node:module';

register('./node-resolve-hooks.js', import.meta.url);
