// Every Node test runs on the same Node environment as the CLI: an in-memory IndexedDB (store code
// runs unchanged) and the importScripts shim hnswlib-wasm probes (src/cli/node-env.ts).
import '../src/cli/node-env';
import fc from 'fast-check';

// Property tests draw from one fixed seed, so a run of the suite is repeatable (a random seed made
// CI fail on whichever input a run happened to draw). To explore other inputs, set FC_SEED to a
// number, or to "random"; a failure prints its seed, and the case it found becomes a fixed test.
const seed = process.env.FC_SEED;
if (seed !== 'random') fc.configureGlobal({ seed: seed ? Number(seed) : 20_261_125 });
