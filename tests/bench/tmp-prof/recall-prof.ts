import '../../../src/cli/node-env';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { parsedEvents } from '../../../src/lib/core/import/parsed-events';
import { loadHnswlibQuietly } from '../../../src/cli/recall/hnswlib-node';
import { openInProcessIndex } from '../../../src/lib/services/index/in-process';
import { runImport } from '../../../src/lib/store/importer';
import { openVault } from '../../../src/lib/store/vault';
import { benchConversations, sampleQuestions } from '../recall-corpus';

const SIZE = Number(process.env.N ?? 100000);
await loadHnswlibQuietly();
const { conversations, corpus } = benchConversations('/work/shared/data', SIZE);
const vault = await openVault(`prof-${process.pid}`);
await runImport(vault, [{ name: 'b', size: null, events: parsedEvents('b.json', 'transcript', conversations, [], 0) }]);
const index = await openInProcessIndex(vault, {});
await index.runJobs();
const recaller = index.recaller();
const questions = sampleQuestions(corpus, 200);
for (const q of questions.slice(0, 20)) await recaller.answer({ prompt: q }, { now: Date.UTC(2025, 0, 1), writeBack: false });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const times: number[] = [];
for (const q of questions) {
  const t = performance.now();
  await recaller.answer({ prompt: q }, { now: Date.UTC(2025, 0, 1), writeBack: false });
  times.push(performance.now() - t);
}
const { profile } = await session.post('Profiler.stop');
writeFileSync(`/work/scratch-keep/prof/recall-${SIZE}.cpuprofile`, JSON.stringify(profile));
times.sort((a, b) => a - b);
console.log(`p50 ${times[100]!.toFixed(1)} p95 ${times[190]!.toFixed(1)}`);
process.exit(0);
