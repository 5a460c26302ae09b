/**
 * `npx tsx tests/bench/bundle-breakdown.ts [--top N] [--files a.js,b.js]`: which packages make up
 * each emitted script (page chunks and worker bundles), from the bundler's own per-module rendered
 * sizes (minified, before gzip). It runs `vite build` with ENGRAM_BUNDLE_REPORT set (see
 * scripts/bundle-report.js), so build/ is rebuilt as by `npm run build`. Used to find what
 * `app.first_load_kb` is made of; not a benchmark figure.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({ options: { top: { type: 'string', default: '12' }, files: { type: 'string' } } });

/** node_modules/<pkg> (or @scope/pkg), else the project folder the module lives in. */
export function ownerOf(id: string): string {
  const clean = id.replace(/^\0/u, '').split('?')[0]!;
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = clean.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const rel = clean.startsWith(root) ? clean.slice(root.length) : clean;
  return rel.split('/').slice(0, 3).join('/');
}

interface Row {
  file: string;
  bytes: number;
  modules: Record<string, number>;
}

const dir = mkdtempSync(join(tmpdir(), 'engram-breakdown-'));
const report = join(dir, 'report.jsonl');
try {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ENGRAM_BUNDLE_REPORT: report },
  });
  const rows = readFileSync(report, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row)
    // The server build (prerendering) emits chunks too; only what a browser fetches matters.
    .filter((row) => row.file.startsWith('_app/') || row.file.includes('.worker') || row.file.startsWith('chunks/') === false)
    .sort((a, b) => b.bytes - a.bytes);
  const wanted = values.files?.split(',');
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  for (const row of wanted ? rows.filter((r) => wanted.some((w) => r.file.includes(w))) : rows.slice(0, Number(values.top))) {
    const owners = new Map<string, number>();
    for (const [id, size] of Object.entries(row.modules)) owners.set(ownerOf(id), (owners.get(ownerOf(id)) ?? 0) + size);
    console.log(`${row.file}  ${kb(row.bytes)}`);
    for (const [owner, size] of [...owners.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`    ${kb(size).padStart(8)}  ${owner}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
