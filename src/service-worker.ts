/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
import { build, files, version } from '$service-worker';
import {
  INCOMING_CACHE,
  INCOMING_PREFIX,
  MODIFIED_HEADER,
  NAME_HEADER,
  SHARE_ACTION,
  SHARE_FILES_FIELD,
  shareRedirect,
} from './lib/core/capture/share-target';
import { workerReferences } from './lib/core/offline/worker-references';

/*
 * Offline shell. Precaches the app (build output and static files) under a versioned cache name and
 * serves it cache-first, navigations included (deep links get the SPA shell). Only this app's old
 * caches are deleted on activation (after what they cached on first use and this version still
 * serves is moved over): transformers.js keeps models in `transformers-cache` and WebLLM
 * in its own caches, and those must survive every update. A new version waits for the person to
 * choose "reload" (SKIP_WAITING message) instead of taking over silently.
 */
const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE_PREFIX = 'engram-shell-';
const CACHE = `${CACHE_PREFIX}${version}`;
const SHELL = '/index.html';
/**
 * Files larger than this are cached on first use instead of at install: WebLLM's two bundles (6 MB
 * each, run only where WebGPU runs a downloaded model), like the WASM files (the ORT wasm is 27 MB)
 * and models, which the install never asks for. The install keeps about 7 MB of the listed files
 * instead of 19.5 MB, and 3.8 MB of worker files they name (the embed and prepare workers, the
 * workers' chunks: the token counter's table is 2 MB of it); the next largest file is 2 MB.
 */
const PRECACHE_MAX_BYTES = 4 * 1024 * 1024;
/** Build output is content-hashed: the same path in two versions is the same file. */
const IMMUTABLE = '/_app/immutable/';
const LAZY_EXTENSIONS = /\.(wasm|onnx)$/;
const TEST_MODELS = '/test-models/';

const precache = [...build.filter((path) => !LAZY_EXTENSIONS.test(path)), ...files.filter((path) => !path.startsWith(TEST_MODELS)), SHELL];
const known = new Set([...build, ...files, SHELL]);

/** Worker files outside SvelteKit's `build` list (nested workers, workers' chunks): precached from what the listed workers name. */
const WORKERS = `${IMMUTABLE}workers/`;

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const found: string[] = [];
      for (const path of precache) {
        const response = await fetch(path, { cache: 'reload' });
        if (!response.ok) throw new Error(`Precache failed for ${path}: ${response.status}`);
        const size = Number(response.headers.get('content-length') ?? 0);
        if (path.startsWith(WORKERS) && size <= PRECACHE_MAX_BYTES) found.push(...workerReferences(path, await response.clone().text()));
        if (size <= PRECACHE_MAX_BYTES) await cache.put(path, response);
        else await response.body?.cancel();
      }
      // Best effort: one of these missing is fetched (and cached) on first use, as before.
      const seen = new Set(known);
      for (let i = 0; i < found.length; i++) {
        const path = found[i]!;
        if (seen.has(path)) continue;
        seen.add(path);
        try {
          const response = await fetch(path, { cache: 'reload' });
          const size = Number(response.headers.get('content-length') ?? 0);
          if (!response.ok || size > PRECACHE_MAX_BYTES) {
            await response.body?.cancel();
            continue;
          }
          found.push(...workerReferences(path, await response.clone().text()));
          await cache.put(path, response);
        } catch {
          // Offline mid-install or a file gone: left to first use.
        }
      }
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const key of await caches.keys()) {
        if (!key.startsWith(CACHE_PREFIX) || key === CACHE) continue;
        await carryOver(await caches.open(key), cache);
        await caches.delete(key);
      }
      await sw.clients.claim();
    })(),
  );
});

/**
 * Files an older version cached on first use (the big ones above) that this version serves
 * unchanged move into the new cache before the old one is deleted, so a runtime fetched once keeps
 * working offline across updates.
 */
async function carryOver(from: Cache, to: Cache): Promise<void> {
  for (const request of await from.keys()) {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(IMMUTABLE) || !known.has(path) || (await to.match(path))) continue;
    const response = await from.match(request);
    if (response) await to.put(path, response);
  }
}

sw.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void sw.skipWaiting();
});

async function fromCacheOrNetwork(request: Request, cacheKey: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(cacheKey);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(cacheKey, response.clone());
  return response;
}

async function navigation(request: Request): Promise<Response> {
  try {
    // Online: the network gives the freshest shell (and lets an update be detected).
    const response = await fetch(request);
    if (response.ok) return response;
    throw new Error(`status ${response.status}`);
  } catch {
    const cache = await caches.open(CACHE);
    return (await cache.match(SHELL)) ?? new Response('Engram Vault is offline and its shell is not cached yet.', { status: 503 });
  }
}

/**
 * A share into the installed app (manifest share_target: POST, multipart). Files are kept in a
 * cache of their own until the Import screen shows them and the person imports or discards them;
 * text and links go to the Capture page as before. Nothing is imported here.
 */
async function receiveShare(request: Request): Promise<Response> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return Response.redirect('/import?incoming=unreadable', 303);
  }
  const shared = form.getAll(SHARE_FILES_FIELD).filter((f): f is File => f instanceof File && f.size > 0);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  let batch: string | null = null;
  if (shared.length > 0) {
    batch = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const cache = await caches.open(INCOMING_CACHE);
    for (const [n, file] of shared.entries()) {
      const headers = new Headers({
        'content-type': file.type || 'application/octet-stream',
        [NAME_HEADER]: encodeURIComponent(file.name || `shared file ${n + 1}`),
        [MODIFIED_HEADER]: String(file.lastModified),
      });
      await cache.put(`${INCOMING_PREFIX}${batch}/${n}`, new Response(file, { headers }));
    }
  }
  return Response.redirect(shareRedirect(batch, { title: text('title'), text: text('text'), url: text('url') }), 303);
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === 'POST' && url.origin === sw.location.origin && url.pathname === SHARE_ACTION) {
    event.respondWith(receiveShare(request));
    return;
  }
  if (request.method !== 'GET') return;
  if (url.origin !== sw.location.origin) return; // model hosts etc. are cached by their libraries
  if (request.mode === 'navigate') {
    event.respondWith(navigation(request));
    return;
  }
  // Content-hashed build output outside the list too (worker files found at install): cache first.
  if (known.has(url.pathname) || url.pathname.startsWith(WORKERS)) event.respondWith(fromCacheOrNetwork(request, url.pathname));
});
