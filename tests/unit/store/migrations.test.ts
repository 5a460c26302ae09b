import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSIONS, VaultDb } from '../../../src/lib/store/schema';
import { rollbackStaged } from '../../../src/lib/store/import-session';
import { openVault } from '../../../src/lib/store/vault';
import { vaultCounts } from '../../../src/lib/store/vaultfile-tables';
import { chunk, conversation, jobRecord, message, note } from '../../factories/records';

/** Rows as written by the code of one schema version: table name -> rows. */
type Seed = Record<string, unknown[]>;

interface MigrationCase {
  from: number;
  seed: Seed;
  /** Where a seeded row must be after the upgrade, and what it looks like; the same table and row unless a version moves or rewrites rows. */
  upgraded?: (table: string, row: unknown) => { table: string; row: unknown };
}

const SUMMARY = { conversationId: 'conv-1', text: 'We talked about pruning maples.', words: 5, method: 'extractive', llmId: null, at: 3 };

const seedV1: Seed = {
  conversations: [conversation()],
  messages: [message(), message({ id: 'msg-2', ordinal: 1, role: 'assistant', text: 'In late winter.' })],
  notes: [note()],
  chunks: [chunk()],
  vectors: [
    { recordId: 'chunk-1', modelId: 'lexical-v1', dims: 3, vector: new Float32Array([1, 0, 0]), contentHash: 'a'.repeat(64), label: 0 },
  ],
  jobs: [
    jobRecord({
      type: 'extract.conversation',
      payload: { conversationId: 'conv-1' },
      priority: 60,
      runAfter: 1,
      createdAt: 1,
      updatedAt: 1,
    }),
  ],
  history: [
    { id: 'hist-1', table: 'notes', recordId: 'note-1', at: 1, actor: 'user', action: 'keep', before: null, after: note(), why: 'kept' },
  ],
  imports: [{ id: 'imp-1', startedAt: 1, finishedAt: 2, status: 'done', label: 'test', report: { ok: true } }],
  settings: [
    { key: 'vault.id', value: 'vault-1' },
    { key: 'extract.summary:conv-1', value: SUMMARY },
    // Not a summary (an older build never wrote one like it, but nothing may be lost): it stays.
    { key: 'extract.summary:odd', value: 'not a summary' },
  ],
  tombstones: [{ table: 'notes', id: 'note-0', hlc: '0000000000001:0000:dev', deletedAt: 1 }],
};

/** Version 1 kept session summaries as settings rows; version 2 moves them into `summaries`. */
function fromV1(table: string, row: unknown): { table: string; row: unknown } {
  const setting = row as { key?: string; value?: unknown };
  if (table === 'settings' && setting.key === 'extract.summary:conv-1') return { table: 'summaries', row: setting.value };
  return { table, row };
}

const seedV2: Seed = {
  ...seedV1,
  settings: [{ key: 'vault.id', value: 'vault-1' }],
  summaries: [SUMMARY],
  threadMaps: [{ id: 'thread-1', subject: ['maple'], sessionIds: ['conv-1', 'conv-2'], arc: [], at: 5 }],
  proposals: [],
  checkpoints: [
    { id: 'cp-1', at: 5, reason: 'merge', label: 'Before merging a file', key: null, entries: 0, state: 'active', rolledBackAt: null },
  ],
};

/** Version 3 (issue 12) adds the intent history the recall prior reads. */
const seedV3: Seed = { ...seedV2, intents: [{ id: 'intent-1', intent: 'factual', at: 5 }] };

/**
 * Version 8 (issue 12) adds the extracted units' triples. Its seed also holds a staged message: a
 * new turn of a conversation the vault held, written by an import that was interrupted before it
 * published (the startup recovery removes it).
 */
const STAGED = message({ id: 'msg-3', ordinal: 2, text: 'And the roots?', importId: 'imp-2/0', state: 'staged' });
const seedV8: Seed = {
  ...seedV3,
  messages: [...seedV3.messages!, STAGED],
  triples: [
    {
      id: 'note-1#0',
      noteId: 'note-1',
      conversationId: 'conv-1',
      messageId: 'msg-1',
      noteHash: 'h1',
      recipe: 'triples-1',
      subject: null,
      subjectText: 'You',
      relation: 'decided to use',
      object: 'Postgres',
      entities: ['postgres'],
      terms: ['decid', 'us', 'postgr'],
      pairs: ['postgres\u0000decid', 'postgres\u0000us', 'postgres\u0000postgr'],
      negated: false,
    },
  ],
};

/** Version 9 marks a staged message with its import's stage key (`stagedBy`), which version 10's index finds it by. */
function markedStaged(table: string, row: unknown): { table: string; row: unknown } {
  const m = row as { state?: string; importId?: string };
  return table === 'messages' && m.state === 'staged' ? { table, row: { ...m, stagedBy: m.importId } } : { table, row };
}

const seedV10: Seed = { ...seedV8, messages: [...seedV3.messages!, { ...STAGED, stagedBy: STAGED.importId }] };

/** One line per schema version: adding version N means adding `{ from: N, seed: seedVN }`. */
const CASES: MigrationCase[] = [
  { from: 1, seed: seedV1, upgraded: fromV1 },
  { from: 2, seed: seedV2 },
  { from: 3, seed: seedV3 },
  // Version 6 (issue 19) drops three message indexes and adds one to jobs: no row changes shape.
  { from: 6, seed: seedV3 },
  // Version 7 (issue 12) adds the LLM's community summaries: a new table, no row changes shape.
  {
    from: 7,
    seed: { ...seedV3, communitySummaries: [{ id: 'community:rachio', signature: 's1', text: 'Irrigation parts.', llmId: 'm', at: 6 }] },
  },
  // Version 8 (issue 12) adds the extracted units' triples: a new table, no row changes shape.
  { from: 8, seed: seedV8, upgraded: markedStaged },
  // Versions 9 and 10 (issue 19): staged messages carry `stagedBy`; `importId` and `state` are no longer indexed.
  { from: 9, seed: seedV10 },
  { from: 10, seed: seedV10 },
  // Version 11 (issue 19) adds message blocks: a new table; messages stored as rows stay rows.
  {
    from: 11,
    seed: {
      ...seedV10,
      messageBlocks: [
        {
          id: 'blk_msg-9',
          conversationId: 'conv-9',
          messageIds: ['msg-9'],
          messages: [message({ id: 'msg-9', conversationId: 'conv-9', text: 'In a block.' })],
          size: 1,
        },
      ],
    },
  },
];

describe('schema migrations', () => {
  it('has a case for every schema version', () => {
    expect(CASES.map((c) => c.from)).toEqual(SCHEMA_VERSIONS.map((v) => v.version));
  });

  for (const migration of CASES) {
    it(`opens a vault created at version ${migration.from} with the current code and loses nothing`, async () => {
      const name = `migration-from-${migration.from}-${Date.now()}`;
      const old = new VaultDb(name, {}, migration.from);
      await old.open();
      expect(old.verno).toBe(migration.from);
      for (const [table, rows] of Object.entries(migration.seed)) await old.table(table).bulkAdd(rows);
      old.close();

      const vault = await openVault(name);
      const expected = new Map<string, unknown[]>();
      for (const [table, rows] of Object.entries(migration.seed)) {
        for (const row of rows) {
          const after = migration.upgraded ? migration.upgraded(table, row) : { table, row };
          expected.set(after.table, [...(expected.get(after.table) ?? []), after.row]);
        }
      }
      for (const [table, rows] of expected) {
        const stored = await vault.db.table(table).toArray();
        // Opening may add rows (the device id setting), never lose or change a seeded one.
        expect(stored.length, `table ${table}`).toBeGreaterThanOrEqual(rows.length);
        expect(stored, `table ${table}`).toEqual(expect.arrayContaining(rows));
      }
      vault.db.close();
    });
  }

  it('leaves messages with the indexes reads use (versions 6 and 10), and jobs countable by type and status', async () => {
    const name = `migration-indexes-${Date.now()}`;
    const old = new VaultDb(name, {}, 1);
    await old.open();
    for (const [table, rows] of Object.entries(seedV1)) await old.table(table).bulkAdd(rows);
    old.close();
    const vault = await openVault(name);
    const idb = vault.db.backendDB();
    const names = (store: string) => [...idb.transaction(store, 'readonly').objectStore(store).indexNames].sort();
    expect(names('messages')).toEqual(['[conversationId+ordinal]', 'stagedBy']);
    expect(names('jobs')).toContain('[type+status+updatedAt]');
    // The new index holds the rows written before it existed.
    expect(await vault.jobs.countOfTypes(['extract.conversation'], 'pending')).toBe(1);
    expect(await vault.conversations.messages('conv-1')).toHaveLength(2);
    vault.db.close();
  });
});

describe('schema versions 9 and 10', () => {
  it('an interrupted import an older build left is still removed by its stage key, and counted out of the vault', async () => {
    const name = `migration-staged-${Date.now()}`;
    const old = new VaultDb(name, {}, 8);
    await old.open();
    for (const [table, rows] of Object.entries(seedV8)) await old.table(table).bulkAdd(rows);
    // A new conversation of the same unfinished import: staged itself, its message visible behind it.
    await old.table('conversations').add(conversation({ id: 'conv-2', externalId: 'c2', importId: 'imp-2/0', state: 'staged' }));
    await old.table('messages').add(message({ id: 'msg-4', conversationId: 'conv-2', importId: 'imp-2/0' }));
    old.close();
    const vault = await openVault(name);
    expect((await vaultCounts(vault.db)).messages).toBe(2);
    await rollbackStaged(vault.db, 'imp-2');
    expect((await vault.db.messages.toCollection().primaryKeys()).sort()).toEqual(['msg-1', 'msg-2']);
    expect(await vault.db.conversations.get('conv-2')).toBeUndefined();
    expect((await vaultCounts(vault.db)).messages).toBe(2);
    vault.db.close();
  });
});

describe('schema version 2', () => {
  it('moves every session summary out of the settings table and leaves no summary row behind', async () => {
    const name = `migration-v2-${Date.now()}`;
    const old = new VaultDb(name, {}, 1);
    await old.open();
    await old.table('settings').bulkAdd(seedV1.settings!);
    old.close();
    const vault = await openVault(name);
    const keys = (await vault.db.settings.toCollection().primaryKeys()).map(String);
    expect(keys).not.toContain('extract.summary:conv-1');
    expect(keys).toContain('extract.summary:odd');
    expect(await vault.db.summaries.get('conv-1')).toEqual(SUMMARY);
    vault.db.close();
  });
});

describe('intent history (schema version 3)', () => {
  it('keeps the last 90 days, drops older intents on the next write, and reads them back in range', async () => {
    const { IntentsRepo } = await import('../../../src/lib/store/intents-repo');
    const vault = await openVault(`intents-${Date.now()}`);
    const repo = new IntentsRepo(vault.db);
    const day = 86_400_000;
    const now = 200 * day;
    await repo.record([
      { intent: 'factual', at: now - 100 * day },
      { intent: 'conceptual', at: now - 10 * day },
    ]);
    expect((await repo.recent(now)).map((r) => r.intent)).toEqual(['conceptual']);
    await repo.record([{ intent: 'factual', at: now }]);
    expect(await vault.db.intents.count()).toBe(2);
    expect((await repo.recent(now)).map((r) => r.intent).sort()).toEqual(['conceptual', 'factual']);
    vault.db.close();
  });
});
