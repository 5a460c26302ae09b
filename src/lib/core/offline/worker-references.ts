/**
 * The worker files a worker file names: a nested worker (started by a worker, not by the page: the
 * embed and prepare workers), as an absolute `/_app/immutable/workers/...js`, and a chunk it imports,
 * as a quoted relative `./...js` or `./chunks/...js` (resolved against the file's own folder).
 * SvelteKit's service-worker `build` list holds neither; the service worker precaches them from
 * what the listed workers name (src/service-worker.ts).
 */
const WORKER_REFERENCE = /\/_app\/immutable\/workers\/[\w.-]+\.js|(?<=["'`])\.\/(?:chunks\/)?[\w.-]+\.js(?=["'`])/gu;

export function workerReferences(path: string, text: string): string[] {
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const out = new Set<string>();
  for (const m of text.matchAll(WORKER_REFERENCE)) out.add(m[0].startsWith('./') ? `${dir}${m[0].slice(2)}` : m[0]);
  return [...out];
}
