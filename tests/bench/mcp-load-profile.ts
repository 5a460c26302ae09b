/**
 * Where `engram mcp` spends loading a vault file: writes a file of BENCH_MCP_LOAD_SIZE corpus turns
 * (default 10000) the way the bench does, then times its restore into a scratch vault and each
 * index job type the load runs (the same calls file-vaults.ts makes). Not a figure: a breakdown.
 */
import '../../src/cli/node-env';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeScratchVault, loadVaultFile, openScratchVault, writeVaultFile } from '../../src/cli/commands/vault-file';
import { SERVER_INDEX } from '../../src/cli/mcp/file-vaults';
import { loadHnswlibQuietly } from '../../src/cli/recall/hnswlib-node';
import { parsedEvents } from '../../src/lib/core/import/parsed-events';
import { openInProcessIndex } from '../../src/lib/services/index/in-process';
import { runImport } from '../../src/lib/store/importer';
import { openVault } from '../../src/lib/store/vault';
import { benchConversations } from './recall-corpus';

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
await closeScratchVault(vault);
