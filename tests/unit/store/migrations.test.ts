import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSIONS, VaultDb } from '../../../src/lib/store/schema';
import { openVault } from '../../../src/lib/store/vault';
import { chunk, conversation, message, note } from '../../factories/records';

/** Rows as written by the code of one schema version: table name -> rows. */
type Seed = Record<string, unknown[]>;

interface MigrationCase {
  from: number;
  seed: Seed;
  /** What a seeded row must look like after the upgrade; identity unless a version rewrites rows. */
  upgraded?: (table: string, row: unknown) => unknown;
}

const seedV1: Seed = {
  conversations: [conversation()],
  messages: [message(), message({ id: 'msg-2', ordinal: 1, role: 'assistant', text: 'In late winter.' })],
  notes: [note()],
  chunks: [chunk()],
  vectors: [
    { recordId: 'chunk-1', modelId: 'lexical-v1', dims: 3, vector: new Float32Array([1, 0, 0]), contentHash: 'a'.repeat(64), label: 0 },
  ],
  jobs: [
    {
      id: 'job-1',
      type: 'extract.conversation',
      payload: { conversationId: 'conv-1' },
      status: 'pending',
      priority: 60,
      attempts: 0,
      maxAttempts: 5,
      runAfter: 1,
      leasedBy: null,
      leasedAt: null,
      leaseUntil: null,
      dedupeKey: null,
      progress: null,
      error: null,
      result: null,
      createdAt: 1,
      updatedAt: 1,
    },
  ],
  history: [
    { id: 'hist-1', table: 'notes', recordId: 'note-1', at: 1, actor: 'user', action: 'keep', before: null, after: note(), why: 'kept' },
  ],
  imports: [{ id: 'imp-1', startedAt: 1, finishedAt: 2, status: 'done', label: 'test', report: { ok: true } }],
  settings: [{ key: 'vault.id', value: 'vault-1' }],
  tombstones: [{ table: 'notes', id: 'note-0', hlc: '0000000000001:0000:dev', deletedAt: 1 }],
};

/** One line per schema version: adding version N means adding `{ from: N, seed: seedVN }`. */
const CASES: MigrationCase[] = [
  { from: 1, seed: seedV1 },
  // Version 6 (issue 19) drops three message indexes and adds one to jobs: no row changes shape.
  { from: 6, seed: seedV1 },
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
      for (const [table, rows] of Object.entries(migration.seed)) {
        const stored = await vault.db.table(table).toArray();
        const expected = rows.map((row) => (migration.upgraded ? migration.upgraded(table, row) : row));
        // Opening may add rows (the device id setting), never lose or change a seeded one.
        expect(stored.length, `table ${table}`).toBeGreaterThanOrEqual(expected.length);
        expect(stored, `table ${table}`).toEqual(expect.arrayContaining(expected));
      }
      vault.db.close();
    });
  }

  it('version 6 leaves messages with the indexes reads use, and jobs countable by type and status', async () => {
    const name = `migration-indexes-${Date.now()}`;
    const old = new VaultDb(name, {}, 1);
    await old.open();
    for (const [table, rows] of Object.entries(seedV1)) await old.table(table).bulkAdd(rows);
    old.close();
    const vault = await openVault(name);
    const idb = vault.db.backendDB();
    const names = (store: string) => [...idb.transaction(store, 'readonly').objectStore(store).indexNames].sort();
    expect(names('messages')).toEqual(['[conversationId+ordinal]', 'importId', 'state'].sort());
    expect(names('jobs')).toContain('[type+status+updatedAt]');
    // The new index holds the rows written before it existed.
    expect(await vault.jobs.countOfTypes(['extract.conversation'], 'pending')).toBe(1);
    expect(await vault.conversations.messages('conv-1')).toHaveLength(2);
    vault.db.close();
  });
});
