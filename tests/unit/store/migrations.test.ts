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
  jobs: [],
  history: [
    { id: 'hist-1', table: 'notes', recordId: 'note-1', at: 1, actor: 'user', action: 'keep', before: null, after: note(), why: 'kept' },
  ],
  imports: [{ id: 'imp-1', startedAt: 1, finishedAt: 2, status: 'done', label: 'test', report: { ok: true } }],
  settings: [{ key: 'vault.id', value: 'vault-1' }],
  tombstones: [{ table: 'notes', id: 'note-0', hlc: '0000000000001:0000:dev', deletedAt: 1 }],
};

/** Version 3 (issue 12) adds the intent history the recall prior reads. */
const seedV3: Seed = { ...seedV1, intents: [{ id: 'intent-1', intent: 'factual', at: 5 }] };

/** One line per schema version: adding version N means adding `{ from: N, seed: seedVN }`. */
const CASES: MigrationCase[] = [
  { from: 1, seed: seedV1 },
  { from: 3, seed: seedV3 },
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
