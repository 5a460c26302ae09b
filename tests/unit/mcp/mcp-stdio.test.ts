/**
 * `engram mcp` as an agent runs it: a separate process speaking MCP over stdio, driven by the
 * SDK's own client. The vault files are written the app's way (importer, notes, the sync folder's
 * writer), and what `remember` writes is merged back by the app's sync and read from its Inbox.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ExpandToolOutput,
  ListDecisionsToolOutput,
  RecallToolOutput,
  RememberToolOutput,
  SearchToolOutput,
} from '../../../src/lib/core/api/agent-tools';
import { readInbox } from '../../../src/lib/store/views/inbox-view';
import type { Vault } from '../../../src/lib/store/vault';
import { writeVaultFile } from '../../../src/cli/commands/vault-file';
import { appVault, syncWithFolder, transcript } from '../../factories/agent-vaults';

const ROOT = join(import.meta.dirname, '../../..');
const WORK_FILE = 'engram-vault-work.engram';
const HOME_FILE = 'engram-vault-home.engram';
/** A word only the Home vault holds: any answer that shows it read Home. */
const HOME_ONLY = 'zebracorn';

let dir: string;
let work: Vault;
let home: Vault;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-mcp-stdio-'));
  work = await appVault(
    'Work',
    [
      transcript(
        ['User', 'We need a database for the billing service.'],
        ['Assistant', 'Postgres and DynamoDB both fit; what matters most?'],
        ['User', 'Decision: we use PostgreSQL for the billing service, with nightly backups.'],
        ['Assistant', 'Noted: PostgreSQL for billing, nightly backups.'],
        ['User', 'Next, the invoice PDF layout.'],
      ),
      transcript(['User', 'How should we name feature flags?'], ['Assistant', 'Prefix them with the team name.']),
    ],
    ['We use PostgreSQL for the billing service.', 'Feature flags are prefixed with the team name.'],
  );
  home = await appVault('Home', [
    transcript(['User', `Our cat is called ${HOME_ONLY} and eats at seven.`], ['Assistant', `Feeding ${HOME_ONLY} at seven, noted.`]),
  ]);
  await syncWithFolder(work, dir, WORK_FILE);
  await syncWithFolder(home, dir, HOME_FILE);
}, 60_000);

afterAll(async () => {
  work.db.close();
  home.db.close();
  await rm(dir, { recursive: true, force: true });
});

const TSX = join(ROOT, 'node_modules/.bin/tsx');
const mcpArgs = (files: string[]) => [
  '--import',
  './scripts/node-resolve.js',
  'src/cli/main.ts',
  'mcp',
  ...files.flatMap((f) => ['--vault', join(dir, f)]),
];

async function startServer(...files: string[]): Promise<Client> {
  return startServerWith({}, ...files);
}

async function startServerWith(env: Record<string, string>, ...files: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: TSX,
    args: mcpArgs(files),
    cwd: ROOT,
    stderr: 'pipe',
    env: { ...process.env, VITEST: '', ...env } as Record<string, string>,
  });
  const client = new Client({ name: 'engram-test', version: '1' });
  await client.connect(transport);
  return client;
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const out = <T>(result: CallResult): T => {
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as T;
};
const errorText = (result: CallResult) => (result.content as { text: string }[])[0]!.text;

describe('engram mcp over stdio (the SDK client drives it)', () => {
  let client: Client;

  beforeAll(async () => {
    client = await startServer(WORK_FILE);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists the five tools, each with an input and an output schema, and none takes a passphrase', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['expand', 'list_decisions', 'recall', 'remember', 'search']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(JSON.stringify(tool.inputSchema).toLowerCase()).not.toContain('passphrase');
    }
    const recall = tools.find((t) => t.name === 'recall')!;
    expect(Object.keys(recall.inputSchema.properties ?? {}).sort()).toEqual(['budget_tokens', 'prompt', 'target', 'vault']);
    expect(recall.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'remember')!.annotations?.readOnlyHint).toBe(false);
  });

  it('recall finds the planted decision, with its id, source, date and score, in a package within the budget', async () => {
    const answer = out<RecallToolOutput>(
      await client.callTool({ name: 'recall', arguments: { prompt: 'Which database does the billing service use?', budget_tokens: 600 } }),
    );
    expect(answer.vault).toBe('Work');
    expect(answer.holds_nothing).toBeNull();
    expect(answer.package.budget).toBe(600);
    expect(answer.package.tokens).toBeLessThanOrEqual(600);
    const hit = answer.items.find((i) => /PostgreSQL for the billing service/u.test(i.text));
    expect(hit).toBeDefined();
    expect(hit!.id).toMatch(/\w/u);
    expect(hit!.score).toBeGreaterThan(0);
    expect(answer.package.text).toContain('PostgreSQL');
    expect(answer.items.every((i) => i.date === null || !Number.isNaN(Date.parse(i.date)))).toBe(true);
  });

  it('search returns ids, snippets and sources; expand returns the turns around an item with the title', async () => {
    const found = out<SearchToolOutput>(
      await client.callTool({ name: 'search', arguments: { query: 'PostgreSQL nightly backups', limit: 5 } }),
    );
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.length).toBeLessThanOrEqual(5);
    const chunk = found.items.find((i) => i.kind === 'chunk' && i.snippet.includes('Decision: we use PostgreSQL'));
    expect(chunk, JSON.stringify(found.items)).toBeDefined();
    expect(chunk!.source.kind).toBe('conversation');

    const around = out<ExpandToolOutput>(await client.callTool({ name: 'expand', arguments: { id: chunk!.id, radius: 1 } }));
    expect(around.conversation?.title).toBeTruthy();
    const texts = around.turns.map((t) => t.text);
    const at = texts.findIndex((t) => t.includes('Decision: we use PostgreSQL'));
    expect(at).toBeGreaterThan(0);
    expect(around.turns[at]!.focus).toBe(true);
    expect(texts[at - 1]).toContain('Postgres and DynamoDB');
    expect(texts[at + 1]).toContain('Noted: PostgreSQL for billing');
    expect(texts.some((t) => t.includes('invoice PDF'))).toBe(false);
  });

  it('list_decisions gives the kept decisions, filtered by topic', async () => {
    const all = out<ListDecisionsToolOutput>(await client.callTool({ name: 'list_decisions', arguments: {} }));
    expect(all.decisions.map((d) => d.text).sort()).toEqual([
      'Feature flags are prefixed with the team name.',
      'We use PostgreSQL for the billing service.',
    ]);
    const billing = out<ListDecisionsToolOutput>(await client.callTool({ name: 'list_decisions', arguments: { topic: 'billing' } }));
    expect(billing.decisions.map((d) => d.text)).toEqual(['We use PostgreSQL for the billing service.']);
    expect(billing.decisions[0]!.kept_at).not.toBeNull();
  });

  it('a second vault is never read: naming it fails, and nothing of it comes back', async () => {
    const named = await client.callTool({ name: 'recall', arguments: { prompt: `What is the cat called? ${HOME_ONLY}`, vault: 'Home' } });
    expect(named.isError).toBe(true);
    const answer = out<RecallToolOutput>(
      await client.callTool({ name: 'recall', arguments: { prompt: `What is the cat called? ${HOME_ONLY}` } }),
    );
    // (The answer repeats the prompt: what it returned is the package and the items.)
    expect(JSON.stringify([answer.package, answer.items])).not.toContain(HOME_ONLY);
    const search = out<SearchToolOutput>(await client.callTool({ name: 'search', arguments: { query: HOME_ONLY } }));
    expect(JSON.stringify(search.items)).not.toContain(HOME_ONLY);
  });

  it('remember writes a provisional candidate to the file; after the app syncs it waits in the Inbox, not kept', async () => {
    const text = 'The billing service retries failed charges three times.';
    const remembered = out<RememberToolOutput>(await client.callTool({ name: 'remember', arguments: { text, category: 'Decisions' } }));
    expect(remembered).toMatchObject({ vault: 'Work', status: 'provisional', already: false, text });
    const again = out<RememberToolOutput>(await client.callTool({ name: 'remember', arguments: { text } }));
    expect(again.already).toBe(true);
    expect(again.id).toBe(remembered.id);

    expect((await readInbox(work)).flatMap((g) => g.items).some((i) => i.note.text === text)).toBe(false);
    const sync = await syncWithFolder(work, dir, WORK_FILE);
    expect(sync.merged?.unchanged).toBe(false);
    const inbox = (await readInbox(work)).flatMap((g) => g.items).filter((i) => i.note.text === text);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.note).toMatchObject({ id: remembered.id, status: 'provisional', category: 'Decisions', keptAt: null });
    expect(inbox[0]!.note.flags).toContain('from-agent');
    const kept = await work.db.notes.where('status').equals('kept').toArray();
    expect(kept.some((n) => n.text === text)).toBe(false);
  });
});

describe('engram mcp with two vaults', () => {
  it('reads only the vault a call names, and asks which when none is named', async () => {
    const client = await startServer(WORK_FILE, HOME_FILE);
    try {
      const unnamed = await client.callTool({ name: 'recall', arguments: { prompt: 'the cat' } });
      expect(unnamed.isError).toBe(true);
      expect(errorText(unnamed)).toContain('"Work"');
      expect(errorText(unnamed)).toContain('"Home"');
      const fromWork = out<RecallToolOutput>(
        await client.callTool({ name: 'recall', arguments: { prompt: `cat ${HOME_ONLY} seven`, vault: 'Work' } }),
      );
      expect(JSON.stringify([fromWork.package, fromWork.items])).not.toContain(HOME_ONLY);
      const fromHome = out<RecallToolOutput>(
        await client.callTool({ name: 'recall', arguments: { prompt: `cat ${HOME_ONLY} seven`, vault: 'Home' } }),
      );
      expect(fromHome.items.some((i) => i.text.includes(HOME_ONLY))).toBe(true);
      expect(JSON.stringify([fromHome.package, fromHome.items])).not.toContain('PostgreSQL');
      const decisions = out<ListDecisionsToolOutput>(await client.callTool({ name: 'list_decisions', arguments: { vault: 'Home' } }));
      expect(decisions.decisions).toEqual([]);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('engram mcp with an encrypted vault file', () => {
  const PASSPHRASE = 'a passphrase only the environment holds';
  const SECRET_FILE = 'engram-vault-secret.engram';

  it('takes the passphrase from the environment once at start and writes remembered candidates encrypted', async () => {
    await writeVaultFile(home, join(dir, SECRET_FILE), PASSPHRASE, { vectors: false });
    const client = await startServerWith({ ENGRAM_PASSPHRASE: PASSPHRASE }, SECRET_FILE);
    try {
      const answer = out<RecallToolOutput>(await client.callTool({ name: 'recall', arguments: { prompt: 'When does the cat eat?' } }));
      expect(answer.items.some((i) => i.text.includes(HOME_ONLY))).toBe(true);
      const text = 'The cat gets a vet check every March.';
      out<RememberToolOutput>(await client.callTool({ name: 'remember', arguments: { text } }));
      const bytes = await readFile(join(dir, SECRET_FILE));
      expect(JSON.parse(bytes.toString('utf8').split('\n')[0]!)).toHaveProperty('encryption');
      expect(bytes.includes(Buffer.from('vet check'))).toBe(false);
      expect(bytes.includes(Buffer.from(HOME_ONLY))).toBe(false);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('without the passphrase (and no terminal to ask on) it stops at start and names the variable to set', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, VITEST: '' };
    delete env.ENGRAM_PASSPHRASE;
    // detached: a session of its own, without a controlling terminal, as an MCP client starts it.
    const child = spawn(TSX, mcpArgs([SECRET_FILE]), { cwd: ROOT, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('ENGRAM_PASSPHRASE');
    expect(stdout).toBe('');
  }, 120_000);
});
