/**
 * Clock skew between two devices (issue 14, item 5). Device A's clock runs years ahead; B's is
 * right. Before: A's records, stamped beyond the drift bound, won every merge on B, so B's later
 * edits and deletions lost. Now B re-stamps them to its own clock when it merges A's file, and
 * skips a version it re-stamped before; so on B the last thing that happened (on B, or A's change
 * as it arrived) always holds, and nothing A did is dropped.
 *
 * The property runs random sequences of edits and deletions on both devices with syncs both ways
 * (through the product's export and merge), against a model of what B must show.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restampNote } from '../../../src/lib/core/vaultfile/drift';
import { hlcWall } from '../../../src/lib/core/vaultfile/hlc';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { note } from '../../factories/records';
import { closeVault, exportBytes, fileStream } from './helpers';

const TEN_YEARS = 10 * 365 * 24 * 60 * 60 * 1000;
const IDS = ['n1', 'n2', 'n3'] as const;

type Op =
  | { kind: 'edit'; device: 'A' | 'B'; id: (typeof IDS)[number] }
  | { kind: 'delete'; device: 'A' | 'B'; id: (typeof IDS)[number] }
  | { kind: 'sync'; from: 'A' | 'B' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), device: fc.constantFrom('A' as const, 'B' as const), id: fc.constantFrom(...IDS) }),
  fc.record({ kind: fc.constant('delete' as const), device: fc.constantFrom('A' as const, 'B' as const), id: fc.constantFrom(...IDS) }),
  fc.record({ kind: fc.constant('sync' as const), from: fc.constantFrom('A' as const, 'B' as const) }),
);

let counter = 0;

async function device(now: () => number): Promise<Vault> {
  counter += 1;
  return openVault(`skew-${process.pid}-${counter}-${Date.now()}`, { now });
}

/** What B shows for each note: its text, or null when deleted / never there. */
async function shown(vault: Vault): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const id of IDS) out[id] = (await vault.db.notes.get(id))?.text ?? null;
  return out;
}

async function runOps(ops: readonly Op[]): Promise<void> {
  let real = 1_700_000_000_000;
  const a = await device(() => real + TEN_YEARS);
  const b = await device(() => real);
  // The model of B: its notes, and per note A's latest own change (a sequence number and value)
  // and the last of A's changes that reached B.
  const modelB: Record<string, string | null> = { n1: null, n2: null, n3: null };
  const aChange: Record<string, { seq: number; value: string | null } | undefined> = {};
  const delivered: Record<string, number> = {};
  let seq = 0;
  try {
    for (const op of ops) {
      real += 1000;
      if (op.kind === 'edit') {
        const text = `${op.device} edit ${++seq} of ${op.id}`;
        const vault = op.device === 'A' ? a : b;
        await vault.notes.save(note({ id: op.id, text }), { actor: 'user', action: 'edit', why: 'test', at: real });
        if (op.device === 'B') modelB[op.id] = text;
        else aChange[op.id] = { seq, value: text };
      } else if (op.kind === 'delete') {
        const vault = op.device === 'A' ? a : b;
        if (!(await vault.db.notes.get(op.id))) continue;
        await vault.deleteRecords('notes', [op.id], { actor: 'user', action: 'delete', why: 'test', at: real });
        seq += 1;
        if (op.device === 'B') modelB[op.id] = null;
        else aChange[op.id] = { seq, value: null };
      } else if (op.from === 'A') {
        const file = await exportBytes(a, { now: () => real + TEN_YEARS });
        const report = await mergeVaultFile(b, fileStream(file.bytes), { now: () => real });
        let fresh = 0;
        for (const id of IDS) {
          const change = aChange[id];
          if (change && change.seq > (delivered[id] ?? 0)) {
            modelB[id] = change.value;
            delivered[id] = change.seq;
            fresh++;
          }
        }
        // Every change of A that B had not seen was re-stamped (a deletion re-stamps its tombstone);
        // the report says so in a line for the person.
        expect(report.restamped).toBeGreaterThanOrEqual(fresh);
        if (report.restamped > 0) expect(report.notes).toContain(restampNote(report.restamped));
      } else {
        const file = await exportBytes(b, { now: () => real });
        await mergeVaultFile(a, fileStream(file.bytes), { now: () => real + TEN_YEARS });
      }
      expect(await shown(b)).toEqual(modelB);
    }
  } finally {
    await closeVault(a);
    await closeVault(b);
  }
}

describe('clock skew: a device years ahead cannot make later edits or deletions lose', () => {
  it('the example from the issue: B edits after merging A, then merges A again; B deletes, then merges A again', async () => {
    await runOps([
      { kind: 'edit', device: 'A', id: 'n1' },
      { kind: 'sync', from: 'A' },
      { kind: 'edit', device: 'B', id: 'n1' },
      { kind: 'sync', from: 'A' },
      { kind: 'delete', device: 'B', id: 'n1' },
      { kind: 'sync', from: 'A' },
      { kind: 'edit', device: 'A', id: 'n1' },
      { kind: 'sync', from: 'A' },
    ]);
  });

  it('random edits, deletions and syncs on both devices (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), (ops) => runOps(ops)),
      { numRuns: 40 },
    );
  }, 240_000);

  it('merging the same file again re-stamps nothing and changes nothing', async () => {
    let real = 1_700_000_000_000;
    const a = await device(() => real + TEN_YEARS);
    const b = await device(() => real);
    try {
      await a.notes.save(note({ id: 'n1', text: 'from the future' }), { actor: 'user', action: 'edit', why: 'test', at: real });
      const file = await exportBytes(a, { now: () => real + TEN_YEARS });
      const first = await mergeVaultFile(b, fileStream(file.bytes), { now: () => real });
      expect(first).toMatchObject({ restamped: 1, unchanged: false });
      const stored = (await b.db.notes.get('n1'))!;
      expect(stored.text).toBe('from the future');
      expect(hlcWall(stored.hlc)).toBeLessThanOrEqual(real + 1000);
      real += 1000;
      const again = await mergeVaultFile(b, fileStream(file.bytes), { now: () => real });
      expect(again).toMatchObject({ restamped: 0, unchanged: true, notes: [] });
    } finally {
      await closeVault(a);
      await closeVault(b);
    }
  });
});
