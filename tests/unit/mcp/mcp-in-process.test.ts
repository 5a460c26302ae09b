/**
 * The MCP server in this process (the SDK's in-memory transport), over vault files on disk: what a
 * stdio test cannot steer, such as a file changing while a request is in the middle of its answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVaultFile, writeVaultFile } from '../../../src/cli/commands/vault-file';
import { WhenLoaded } from '../../../src/cli/commands/mcp';
import { FileVaults } from '../../../src/cli/mcp/file-vaults';
import { createAgentServer } from '../../../src/cli/mcp/server';
import type { RecallToolOutput } from '../../../src/lib/core/api/agent-tools';
import { AgentTools, type AgentVault, type AgentVaults } from '../../../src/lib/services/agent/agent-tools';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { readInbox } from '../../../src/lib/store/views/inbox-view';
import { appVault, importTexts, syncWithFolder, transcript } from '../../factories/agent-vaults';

let dir: string;
let work: Vault;
const WORK_FILE = 'engram-vault-work.engram';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-mcp-in-process-'));
  work = await appVault('Work', [
    transcript(['User', 'Which queue should the billing service use?'], ['Assistant', 'RabbitMQ fits the billing retries well.']),
  ]);
  await syncWithFolder(work, dir, WORK_FILE);
}, 60_000);

afterAll(async () => {
  work.db.close();
  await rm(dir, { recursive: true, force: true });
});

/** Holds every recall answer until `release` (a request caught in the middle of its answer). */
class GatedVaults implements AgentVaults {
  gate: Promise<void> = Promise.resolve();
  release: () => void = () => undefined;
  entered: Promise<void> = Promise.resolve();
  private enteredNow: () => void = () => undefined;

  constructor(private readonly inner: FileVaults) {}

  close(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
    this.entered = new Promise((resolve) => (this.enteredNow = resolve));
  }

  names() {
    return this.inner.names();
  }

  async get(name: string): Promise<AgentVault> {
    const vault = await this.inner.get(name);
    const answer = vault.recaller.answer.bind(vault.recaller);
    const gated = Object.create(vault.recaller) as typeof vault.recaller;
    gated.answer = async (...args) => {
      this.enteredNow();
      await this.gate;
      return answer(...args);
    };
    return { ...vault, recaller: gated };
  }

  remember(name: string, note: Parameters<AgentVaults['remember']>[1]) {
    return this.inner.remember(name, note);
  }
}

async function connect(vaults: AgentVaults, names: readonly string[]) {
  const server = createAgentServer(new AgentTools(vaults, { writeBack: false }), { version: 'test', vaults: names });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
}

const recallOf = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as RecallToolOutput;

describe('engram mcp reloads a changed file between requests, never in the middle of one', () => {
  it('a request in flight answers from what it started with; the next one from the changed file', async () => {
    const log: string[] = [];
    const files = await FileVaults.open([{ path: join(dir, WORK_FILE), passphrase: null }], ['Work'], { log: (line) => log.push(line) });
    const gated = new GatedVaults(files);
    const client = await connect(gated, files.names());
    const question = { prompt: 'Which database did we pick for the ledger: Cassandra?' };
    const before = recallOf(await client.callTool({ name: 'recall', arguments: question }));
    expect(before.items.some((i) => i.text.includes('Cassandra'))).toBe(false);

    gated.close();
    const inFlight = client.callTool({ name: 'recall', arguments: question });
    await gated.entered;
    // The app imports a new chat and syncs while the first request is answering.
    await importTexts(work, [
      transcript(['User', 'For the ledger we decided on Cassandra, final answer.'], ['Assistant', 'Cassandra it is for the ledger.']),
    ]);
    await syncWithFolder(work, dir, WORK_FILE);
    const next = client.callTool({ name: 'recall', arguments: question });
    gated.release();

    const first = recallOf(await inFlight);
    const second = recallOf(await next);
    expect(first.items.some((i) => i.text.includes('Cassandra'))).toBe(false);
    expect(second.items.some((i) => i.text.includes('Cassandra'))).toBe(true);
    // The changed file was merged into the loaded copy (it then held exactly what the file holds), not loaded whole.
    expect(log.filter((line) => line.startsWith('Merged the changed'))).toHaveLength(1);
    expect(log.filter((line) => line.startsWith('Loaded'))).toHaveLength(1);
    await client.close();
    await files.close();
  }, 120_000);
});

describe('engram mcp keeps a remembered candidate in the file', () => {
  it('writes it again when the app replaced the file with one written before it merged the candidate', async () => {
    const log: string[] = [];
    const files = await FileVaults.open([{ path: join(dir, WORK_FILE), passphrase: null }], ['Work'], { log: (line) => log.push(line) });
    const client = await connect(files, files.names());
    const text = 'Invoices are numbered per year.';
    const remembered = await client.callTool({ name: 'remember', arguments: { text } });
    expect(remembered.isError).toBeFalsy();
    // The app writes the file from its own state, which never merged the candidate.
    await writeVaultFile(work, join(dir, WORK_FILE), null, { vectors: false });
    const inFile = async () => {
      const copy = await openVault(`copy-${Date.now()}`);
      await loadVaultFile(copy, join(dir, WORK_FILE), null);
      const found = (await copy.db.notes.toArray()).some((n) => n.text === text);
      copy.db.close();
      return found;
    };
    expect(await inFile()).toBe(false);
    // The next request loads the replaced file, finds the candidate missing and writes it again.
    await client.callTool({ name: 'search', arguments: { query: 'invoices' } });
    expect(await inFile()).toBe(true);
    // The merged copy held the candidate the file lacked: it was loaded whole instead.
    expect(log.filter((line) => line.startsWith('Loaded'))).toHaveLength(2);
    await syncWithFolder(work, dir, WORK_FILE);
    expect((await readInbox(work)).flatMap((g) => g.items).some((i) => i.note.text === text)).toBe(true);
    await client.close();
    await files.close();
  }, 120_000);
});

describe('engram mcp while its files load', () => {
  it('answers the handshake and says "still loading" instead of leaving a call to time out', async () => {
    let finish: (vaults: FileVaults) => void = () => undefined;
    const opening = new Promise<FileVaults>((resolve) => (finish = resolve));
    const client = await connect(new WhenLoaded(['Work'], opening, 10), ['Work']);
    expect((await client.listTools()).tools).toHaveLength(5);
    const early = await client.callTool({ name: 'recall', arguments: { prompt: 'billing queue' } });
    expect(early.isError).toBe(true);
    expect((early.content as { text: string }[])[0]!.text).toContain('agent/loading');
    const files = await FileVaults.open([{ path: join(dir, WORK_FILE), passphrase: null }], ['Work']);
    finish(files);
    const later = await client.callTool({ name: 'recall', arguments: { prompt: 'billing queue' } });
    expect(later.isError).toBeFalsy();
    await client.close();
    await files.close();
  }, 120_000);
});
