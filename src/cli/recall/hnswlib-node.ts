/**
 * hnswlib-wasm ships only a `module` field, which Node's resolver ignores: `import 'hnswlib-wasm'`
 * fails under tsx. This registers a resolve hook that points the bare specifier at the package's
 * file (Vite and vitest resolve it themselves; their config aliases it). Call it before anything
 * imports the vector index (the engine loads its HNSW backend on demand for this reason).
 */
import { register } from 'node:module';

let registered = false;

const HOOK = `export async function resolve(specifier, context, next) {
  return next(specifier === 'hnswlib-wasm' ? 'hnswlib-wasm/dist/hnswlib.js' : specifier, context);
}`;

export function ensureHnswlibResolvable(): void {
  if (registered || process.env.VITEST) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, import.meta.url);
}

/**
 * Loads hnswlib-wasm with its start-up chatter ("Mounting IDBFS filesystem...", printed with
 * console.log) sent to stderr, so `--json` output on stdout stays parseable.
 */
export async function loadHnswlibQuietly(): Promise<void> {
  ensureHnswlibResolvable();
  const { hnswlib } = await import('../../lib/store/vector-index-runtime');
  const log = console.log;
  console.log = (...args: unknown[]) => console.error(...args);
  try {
    await hnswlib();
    // The file system reports its first sync on a later turn: give it one.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    console.log = log;
  }
}
