/**
 * `engram mcp` end to end: a separate process speaking MCP over stdio, driven by the SDK's client,
 * serving a vault file written the way the sync folder writes it (no vectors). Figures:
 * - mcp.recall.<size>.p95_ms (and p50): one `recall` tool call, from the client's request to its
 *   parsed answer, after the file was loaded (target at 10k messages: <= 100 ms);
 * - mcp.load.<size>.seconds: from starting the server to the answer of its first call (the file
 *   restored into an in-memory vault and indexed by the app's index service).
 * BENCH_MCP_RECALL_SIZE (default 10000), BENCH_MCP_LOAD_SIZE (default 100000), BENCH_MCP_QUERIES
 * (default 100), BENCH_MCP_VECTORS (the server's --vectors, default its own) and
 * BENCH_MCP_LOAD_TIMEOUT_S (default 3600: how long the client waits for one call while the file
 * loads) steer it.
 *
 * While the file loads, the server holds a call up to 45 s, then answers agent/loading (docs/AGENTS.md),
 * and the first call is repeated. The SDK client's own request timeout (60 s by default, MCP error
 * -32001) is raised above the whole load for those calls: a server busy loading can answer its 45 s
 * late, and a timed-out call would end the measurement instead of the load.
 */
import '../../src/cli/node-env';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeVaultFile } from '../../src/cli/commands/vault-file';
import { parsedEvents } from '../../src/lib/core/import/parsed-events';
import { runImport } from '../../src/lib/store/importer';
import { openVault } from '../../src/lib/store/vault';
import { isEntry, latencies, now, runStandalone } from '../factories/corpus-bench';
import type { BenchContext, BenchModule, FigureSamples } from './harness';
import { benchConversations, sampleQuestions } from './recall-corpus';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECALL_SIZE = Number(process.env.BENCH_MCP_RECALL_SIZE ?? 10_000);
const LOAD_SIZE = Number(process.env.BENCH_MCP_LOAD_SIZE ?? 100_000);
const QUERIES = Number(process.env.BENCH_MCP_QUERIES ?? 100);
const VECTORS = process.env.BENCH_MCP_VECTORS;
const LOAD_TIMEOUT_MS = Number(process.env.BENCH_MCP_LOAD_TIMEOUT_S ?? 3600) * 1000;
const label = (size: number) => (size % 1000 === 0 ? `${size / 1000}k` : String(size));

/** A vault file of `size` corpus turns, written as the sync folder writes it. */
async function vaultFile(ctx: BenchContext, dir: string, size: number): Promise<{ path: string; questions: string[]; mb: number }> {
  const { conversations, corpus } = benchConversations(ctx.dataDir, size);
  const vault = await openVault(`bench-mcp-${process.pid}-${size}`);
  await runImport(vault, [{ name: 'bench', size: null, events: parsedEvents('bench.json', 'transcript', conversations, [], 0) }]);
  const path = join(dir, `bench-${size}.engram`);
  await writeVaultFile(vault, path, null, { vectors: false });
  vault.db.close();
  await vault.db.delete();
  const mb = (await stat(path)).size / 2 ** 20;
  return { path, questions: sampleQuestions(corpus, QUERIES), mb };
}

async function start(path: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: join(ROOT, 'node_modules/.bin/tsx'),
    args: ['--import', './scripts/node-resolve.js', 'src/cli/main.ts', 'mcp', '--vault', path, ...(VECTORS ? ['--vectors', VECTORS] : [])],
    cwd: ROOT,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'engram-bench', version: '1' });
  await client.connect(transport);
  return client;
}

async function recallOnce(client: Client, prompt: string): Promise<void> {
  const result = await client.callTool({ name: 'recall', arguments: { prompt } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
}

/** The first answer: while the file loads, the server says "still loading" (agent/loading) and the call is repeated. */
async function firstAnswer(client: Client, prompt: string): Promise<void> {
  for (;;) {
    const result = await client.callTool({ name: 'recall', arguments: { prompt } }, undefined, { timeout: LOAD_TIMEOUT_MS });
    if (!result.isError) return;
    const text = JSON.stringify(result.content);
    if (!text.includes('agent/loading')) throw new Error(text);
  }
}

export const bench: BenchModule = {
  name: 'mcp',
  async run(ctx) {
    const figures: FigureSamples[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'engram-bench-mcp-'));
    try {
      if (ctx.wants(`mcp.recall.${label(RECALL_SIZE)}`)) {
        const file = await vaultFile(ctx, dir, RECALL_SIZE);
        const p50: number[] = [];
        const p95: number[] = [];
        for (let run = 0; run < ctx.runs; run++) {
          const client = await start(file.path);
          try {
            await firstAnswer(client, file.questions[0]!);
            const samples: number[] = [];
            for (const question of file.questions) {
              const t = now();
              await recallOnce(client, question);
              samples.push(now() - t);
            }
            const l = latencies(samples);
            p50.push(l.p50);
            p95.push(l.p95);
            ctx.log(
              `recall over stdio at ${label(RECALL_SIZE)}: p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms (${samples.length} calls)`,
            );
          } finally {
            await client.close();
          }
        }
        const meta = {
          messages: RECALL_SIZE,
          fileMb: Number(file.mb.toFixed(1)),
          queries: file.questions.length,
          vectors: VECTORS ?? 'server default',
        };
        figures.push(
          { name: `mcp.recall.${label(RECALL_SIZE)}.p50_ms`, unit: 'ms', values: p50, meta },
          { name: `mcp.recall.${label(RECALL_SIZE)}.p95_ms`, unit: 'ms', values: p95, meta },
        );
      }
      if (ctx.wants(`mcp.load.${label(LOAD_SIZE)}`)) {
        const file = await vaultFile(ctx, dir, LOAD_SIZE);
        const seconds: number[] = [];
        for (let run = 0; run < ctx.runs; run++) {
          const t = now();
          const client = await start(file.path);
          try {
            await firstAnswer(client, file.questions[0]!);
            seconds.push((now() - t) / 1000);
            ctx.log(`first answer from a ${label(LOAD_SIZE)}-message file (${file.mb.toFixed(1)} MB): ${seconds.at(-1)!.toFixed(1)} s`);
          } finally {
            await client.close();
          }
        }
        figures.push({
          name: `mcp.load.${label(LOAD_SIZE)}.seconds`,
          unit: 's',
          values: seconds,
          meta: { messages: LOAD_SIZE, fileMb: Number(file.mb.toFixed(1)), vectors: VECTORS ?? 'server default' },
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return figures;
  },
};

if (isEntry(import.meta.url)) await runStandalone(bench);
