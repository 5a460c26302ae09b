// Serves the static build (build/) on localhost with the SPA fallback and the app's headers.
// `npm start` builds first, then runs this. PORT and HOST may be set in the environment.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { cspHeaderFor } from './csp.js';
import { requestPath, securityHeaders } from './security-headers.js';

const root = fileURLToPath(new URL('../build', import.meta.url));
if (!existsSync(root)) {
  console.error('No build/ folder. Run `npm run build` first (or `npm start`, which builds).');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4173);
const host = process.env.HOST ?? '127.0.0.1';
// The policy SvelteKit wrote into the shell (with its bootstrap script's hash), plus the
// directives only a header can carry (frame-ancestors). Every response gets it: it also governs
// the workers and the service worker, whose scripts are served here.
const csp = cspHeaderFor(readFileSync(`${root}/index.html`, 'utf8'));

const assets = sirv(root, {
  single: 'index.html',
  // No ETags: the shell and the service worker must always be re-read (Cache-Control: no-cache),
  // and immutable assets never need revalidation.
  etag: false,
  setHeaders(res, pathname) {
    // The service worker and the shell must never be served stale from the HTTP cache.
    if (pathname === '/service-worker.js' || pathname.endsWith('.html') || pathname === '/') {
      res.setHeader('Cache-Control', 'no-cache');
    } else if (pathname.startsWith('/_app/immutable/')) {
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    }
  },
});

const server = createServer((req, res) => {
  // Set per request path (sirv's setHeaders only sees the file it serves, index.html for every
  // SPA route), because the opener policy of /capture differs (scripts/security-headers.js).
  for (const [name, value] of Object.entries(securityHeaders(requestPath(req.url)))) res.setHeader(name, value);
  res.setHeader('Content-Security-Policy', csp);
  assets(req, res, () => {
    res.statusCode = 404;
    res.end('Not found');
  });
});
server.listen(port, host, () => {
  console.log(`Engram Vault is being served at http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/`);
});
