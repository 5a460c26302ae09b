/**
 * Where `engram mcp` spends loading a vault file: writes a file of BENCH_MCP_LOAD_SIZE corpus turns
 * (default 10000) the way the bench does, then times its restore into a scratch vault and each
 * index job type the load runs (the same calls file-vaults.ts makes). Not a figure: a breakdown.
 * MCP_PROFILE_WRITE=1 writes the file first (to MCP_PROFILE_FILE, default /tmp/engram-profile-<size>.engram);
 * MCP_PROFILE_APP_INDEX=1 indexes with the app's settings instead of the server's (SERVER_INDEX);
 * MCP_PROFILE_QUERIES=N then makes N recall tool calls and writes their CPU profile. Add
 * `--cpu-prof` to tsx for the load's functions. docs/AGENTS.md ("What a load costs") has the figures.
 */
import '../../src/cli/node-env';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeScratchVault, loadVaultFile, openScratchVault, writeVaultFile } from '../../src/cli/commands/vault-file';
import { SERVER_INDEX } from '../../src/cli/mcp/file-vaults';
import { loadHnswlibQuietly } from '../../src/cli/recall/hnswlib-node';
import { parsedEvents } from '../../src/lib/core/import/parsed-events';
import { AgentTools } from '../../src/lib/services/agent/agent-tools';
import { openInProcessIndex } from '../../src/lib/services/index/in-process';
import { runImport } from '../../src/lib/store/importer';
import { openVault } from '../../src/lib/store/vault';
import { benchConversations, sampleQuestions } from './recall-corpus';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SIZE = Number(process.env.BENCH_MCP_LOAD_SIZE ?? 10_000);
const path = process.env.MCP_PROFILE_FILE ?? `/tmp/engram-profile-${SIZE}.engram`;

if (process.env.MCP_PROFILE_WRITE) {
  const { conversations } = benchConversations(join(ROOT, '../shared/data'), SIZE);
  const vault = await openVault(`profile-write-${process.pid}`);
  await runImport(vault, [{ name: 'bench', size: null, events: parsedEvents('bench.json', 'transcript', conversations, [], 0) }]);
  await writeVaultFile(vault, path, null, { vectors: false });
  vault.db.close();
  console.log(`wrote ${path}`);
  process.exit(0);
}

await loadHnswlibQuietly();
const t0 = performance.now();
const vault = await openScratchVault();
const report = await loadVaultFile(vault, path, null);
const t1 = performance.now();
const seconds: Record<string, number> = {};
// MCP_PROFILE_APP_INDEX=1: the app's index settings (efConstruction 200, saves every 30 s), as before the server had its own.
const index = await openInProcessIndex(vault, { seconds, ...(process.env.MCP_PROFILE_APP_INDEX ? {} : SERVER_INDEX) });
const t2 = performance.now();
await index.runJobs();
const t3 = performance.now();
const recaller = index.recaller();
const t4 = performance.now();
await recaller.answer({ prompt: 'what did we decide about the trip' }, { writeBack: false });
const t5 = performance.now();
console.log(
  JSON.stringify(
    {
      messages: report.restored.messages,
      restoreS: (t1 - t0) / 1000,
      openIndexS: (t2 - t1) / 1000,
      jobsS: (t3 - t2) / 1000,
      jobSeconds: seconds,
      firstAnswerS: (t5 - t4) / 1000,
      health: await index.service.checkHealth(),
    },
    null,
    2,
  ),
);
const queries = Number(process.env.MCP_PROFILE_QUERIES ?? 0);
if (queries > 0) {
  // The calls' own time, as the recall tool makes them (AgentTools over the loaded vault), profiled with the inspector.
  const { corpus } = benchConversations(join(ROOT, '../shared/data'), SIZE);
  const tools = new AgentTools(
    {
      names: () => ['bench'],
      get: async () => ({ name: 'bench', vault, recaller }),
      remember: () => Promise.reject(new Error('read only')),
    },
    { writeBack: false },
  );
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  const samples: number[] = [];
  const slowest: { ms: number; prompt: string; items: number; tokens: number }[] = [];
  for (const prompt of sampleQuestions(corpus, queries)) {
    const t = performance.now();
    const outcome = await tools.call('recall', { prompt });
    const ms = performance.now() - t;
    samples.push(ms);
    if (!outcome.ok) throw new Error(outcome.error.message);
    const value = outcome.value as { items: unknown[]; package: { tokens: number } };
    slowest.push({ ms, prompt, items: value.items.length, tokens: value.package.tokens });
  }
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`slowest calls: ${JSON.stringify(slowest.slice(0, 8).map((s) => ({ ...s, ms: Math.round(s.ms) })))}`);
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  await writeFile('/tmp/engram-mcp-calls.cpuprofile', JSON.stringify(profile));
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
  console.log(`recall calls: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms; profile in /tmp/engram-mcp-calls.cpuprofile`);
}
await closeScratchVault(vault);
