import { describe, expect, it } from 'vitest';
import { workerReferences } from '../../../src/lib/core/offline/worker-references';

describe('workerReferences (what the service worker precaches beyond SvelteKit\u2019s build list)', () => {
  it('finds nested workers by absolute path and chunks by quoted relative path, resolved against the file', () => {
    const importWorker =
      'const w=()=>new Worker(new URL("/_app/immutable/workers/prepare.worker-0ueXXOr9.js",import.meta.url),{type:`module`});';
    expect(workerReferences('/_app/immutable/workers/import.worker-DMKvxVpi.js', importWorker)).toEqual([
      '/_app/immutable/workers/prepare.worker-0ueXXOr9.js',
    ]);
    const indexWorker = 'import{a as e}from"./chunks/WkwZ5CU-.js";import(`./chunks/Other_1.js`);const x="./not-a-chunk.json";';
    expect(workerReferences('/_app/immutable/workers/index.worker-C5M-DgBf.js', indexWorker)).toEqual([
      '/_app/immutable/workers/chunks/WkwZ5CU-.js',
      '/_app/immutable/workers/chunks/Other_1.js',
    ]);
    // A chunk naming a sibling chunk; each file once; prose and other folders are not files to fetch.
    const chunk = 'import"./B-MgilKR.js";import"./B-MgilKR.js";// see ./readme.js and /_app/immutable/chunks/x.js';
    expect(workerReferences('/_app/immutable/workers/chunks/WkwZ5CU-.js', chunk)).toEqual(['/_app/immutable/workers/chunks/B-MgilKR.js']);
  });
});
