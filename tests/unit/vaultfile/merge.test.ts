import { describe, expect, it } from 'vitest';
import type { TombstoneRecord } from '../../../src/lib/core/records';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { encodeHlc } from '../../../src/lib/core/vaultfile/hlc';
import { displacedHistory, MERGE_HISTORY_ACTION, mergeKey, mergeVaults } from '../../../src/lib/core/vaultfile/merge';
import { emptyVaultState, type VaultState } from '../../../src/lib/core/vaultfile/sections';
import { pickVersion } from '../../../src/lib/core/vaultfile/version-order';
import { message, note } from '../../factories/records';

const at = (wall: number, node = 'a', counter = 0) => encodeHlc({ wall, counter, node });
const tomb = (id: string, hlc: string, table = 'notes'): TombstoneRecord => ({ table, id, hlc, deletedAt: 0 });
const state = (over: Partial<VaultState>): VaultState => ({ ...emptyVaultState(), ...over });

describe('merge rules', () => {
  it('unions records by id and keeps the later clock of the same record', async () => {
    const a = state({ notes: [note({ id: 'n1', text: 'old', hlc: at(1) }), note({ id: 'n2', hlc: at(1) })] });
    const b = state({ notes: [note({ id: 'n1', text: 'new', hlc: at(2, 'b') })], messages: [message({ hlc: at(1) })] });
    const merged = await mergeVaults(a, b);
    expect(merged.notes.map((n) => [n.id, n.text])).toEqual([
      ['n1', 'new'],
      ['n2', 'Prune Japanese maples in late winter.'],
    ]);
    expect(merged.messages).toHaveLength(1);
  });

  it('records the losing version of a conflicting note edit in history, with a deterministic id', async () => {
    const mine = note({ id: 'n1', text: 'mine', hlc: at(5, 'a') });
    const theirs = note({ id: 'n1', text: 'theirs', hlc: at(5, 'b') });
    const merged = await mergeVaults(state({ notes: [mine] }), state({ notes: [theirs] }));
    expect(merged.notes).toEqual([theirs]);
    expect(merged.history).toHaveLength(1);
    const entry = merged.history[0]!;
    expect(entry).toMatchObject({
      table: 'notes',
      recordId: 'n1',
      actor: 'merge',
      action: MERGE_HISTORY_ACTION,
      before: mine,
      after: null,
      at: 5,
    });
    expect(entry.id).toMatch(/^merge-[0-9a-f]{32}$/);
    const again = await mergeVaults(state({ notes: [theirs] }), state({ notes: [mine] }));
    expect(again.history[0]!.id).toBe(entry.id);
    // Merging the result with either side again adds nothing (idempotent history).
    expect(await vaultDigest(await mergeVaults(merged, state({ notes: [mine] })))).toBe(await vaultDigest(merged));
  });

  it('keeps no history for messages, conversations or chunks (re-derivable), only for notes', async () => {
    const merged = await mergeVaults(
      state({ messages: [message({ text: 'a', hlc: at(1) })] }),
      state({ messages: [message({ text: 'b', hlc: at(2) })] }),
    );
    expect(merged.messages[0]!.text).toBe('b');
    expect(merged.history).toEqual([]);
  });

  describe('delete versus edit', () => {
    it('a deletion later than the last edit removes the record and records the deleted version', async () => {
      const edited = note({ id: 'n1', hlc: at(3) });
      const merged = await mergeVaults(state({ notes: [edited] }), state({ tombstones: [tomb('n1', at(4, 'b'))] }));
      expect(merged.notes).toEqual([]);
      expect(merged.tombstones).toHaveLength(1);
      expect(merged.history.map((h) => h.before)).toEqual([edited]);
    });

    it('an edit later than the deletion brings the record back (the tombstone stays)', async () => {
      const revived = note({ id: 'n1', text: 'undone', hlc: at(5) });
      const merged = await mergeVaults(
        state({ notes: [revived], tombstones: [tomb('n1', at(4, 'b'))] }),
        state({ tombstones: [tomb('n1', at(4, 'b'))] }),
      );
      expect(merged.notes).toEqual([revived]);
      expect(merged.tombstones).toHaveLength(1);
    });

    it('on an exact clock tie the deletion wins', () => {
      const merged = mergeKey('notes', [note({ id: 'n1', hlc: at(4, 'b') })], tomb('n1', at(4, 'b')));
      expect(merged.record).toBeNull();
    });

    it('a tombstone only deletes in its own table', async () => {
      const merged = await mergeVaults(
        state({ notes: [note({ id: 'x', hlc: at(1) })] }),
        state({ tombstones: [tomb('x', at(9), 'messages')] }),
      );
      expect(merged.notes).toHaveLength(1);
    });

    it('the later of two tombstones of the same record is kept', async () => {
      const merged = await mergeVaults(state({ tombstones: [tomb('n1', at(2))] }), state({ tombstones: [tomb('n1', at(7, 'b'))] }));
      expect(merged.tombstones).toEqual([tomb('n1', at(7, 'b'))]);
    });
  });

  it('applying the per-key merge piece by piece equals applying it once (streaming import)', () => {
    const v1 = note({ id: 'n1', text: 'v1', hlc: at(1) });
    const v2 = note({ id: 'n1', text: 'v2', hlc: at(3) });
    const v3 = note({ id: 'n1', text: 'v3', hlc: at(2, 'b') });
    const once = mergeKey('notes', [v1, v2, v3], undefined);
    const first = mergeKey('notes', [v1, v3], undefined);
    const second = mergeKey('notes', [first.record!, v2], undefined);
    expect(second.record).toBe(once.record);
    expect(new Set([...first.displaced, ...second.displaced])).toEqual(new Set(once.displaced));
  });

  it('the streaming helper produces the same history entries as the in-memory merge', async () => {
    const v1 = note({ id: 'n1', text: 'v1', hlc: at(1) });
    const v2 = note({ id: 'n1', text: 'v2', hlc: at(2) });
    const merged = await mergeVaults(state({ notes: [v1] }), state({ notes: [v2] }));
    const { displaced } = mergeKey('notes', [v1, v2], undefined);
    expect(await displacedHistory('notes', displaced)).toEqual(merged.history);
    expect(await displacedHistory('messages', [message()])).toEqual([]);
  });

  it('orders unstamped tables deterministically: finished imports beat running ones, settings by clock when present', async () => {
    const running = { id: 'imp', startedAt: 1, finishedAt: null, status: 'running' as const, label: 'x', report: null };
    const done = { ...running, finishedAt: 9, status: 'done' as const };
    expect((await mergeVaults(state({ imports: [done] }), state({ imports: [running] }))).imports).toEqual([done]);
    expect((await mergeVaults(state({ imports: [running] }), state({ imports: [done] }))).imports).toEqual([done]);
    const oldSetting = { key: 'theme', value: 'zzz', hlc: at(1) };
    const newSetting = { key: 'theme', value: 'aaa', hlc: at(2) };
    expect(pickVersion('settings', oldSetting, newSetting)).toBe(newSetting);
    expect(pickVersion('settings', { key: 'k', value: 'b' }, { key: 'k', value: 'a' })).toEqual({ key: 'k', value: 'b' });
  });

  it('the digest ignores storage order but sees any change of content', async () => {
    const a = state({ notes: [note({ id: 'n1', hlc: at(1) }), note({ id: 'n2', hlc: at(1) })] });
    const reordered = state({ notes: [...a.notes].reverse() });
    expect(await vaultDigest(reordered)).toBe(await vaultDigest(a));
    const changed = state({ notes: [a.notes[0]!, { ...a.notes[1]!, pinned: true }] });
    expect(await vaultDigest(changed)).not.toBe(await vaultDigest(a));
  });
});
