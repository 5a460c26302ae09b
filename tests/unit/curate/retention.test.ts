import { describe, expect, it } from 'vitest';
import {
  addToVector,
  deviceOf,
  historyBeyondCap,
  RETENTION,
  tombstoneVerdict,
  type DeviceSeen,
  type VersionVector,
} from '../../../src/lib/core/curate/retention';
import type { HistoryRecord, TombstoneRecord } from '../../../src/lib/core/records';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);
const stamp = (wall: number, node: string) => `${String(wall).padStart(13, '0')}:0000:${node}`;
const tomb = (wall: number, node: string, deletedAt = wall): TombstoneRecord => ({
  table: 'notes',
  id: `n${wall}`,
  hlc: stamp(wall, node),
  deletedAt,
});

describe('retention: version vectors', () => {
  it('names the device of a stamp (every context of one device is one device)', () => {
    expect(deviceOf(stamp(5, 'dabc-x1y2'))).toBe('dabc');
    expect(deviceOf(stamp(5, 'dev'))).toBe('dev');
  });

  it('keeps the latest stamp per device', () => {
    const vector: VersionVector = {};
    addToVector(vector, stamp(5, 'da-1'));
    addToVector(vector, stamp(9, 'da-2'));
    addToVector(vector, stamp(7, 'da-1'));
    addToVector(vector, stamp(3, 'db-1'));
    expect(vector).toEqual({ da: stamp(9, 'da-2'), db: stamp(3, 'db-1') });
  });
});

describe('retention: tombstones', () => {
  const old = NOW - 120 * DAY;
  const seenBy = (device: string, vector: VersionVector): DeviceSeen => ({ deviceId: device, vector });

  it('purges a tombstone every known device has merged', () => {
    const t = tomb(old, 'da-1');
    const others = [seenBy('db', { da: stamp(old + 10, 'da-1') }), seenBy('dc', { da: stamp(old, 'da-1') })];
    expect(tombstoneVerdict(t, { self: 'da', known: ['da', 'db', 'dc'], seen: others, lastExportAt: null, now: NOW })).toBe(
      'merged-everywhere',
    );
  });

  it('keeps it while a known device has not merged it, or has never said what it merged', () => {
    const t = tomb(NOW - 10 * DAY, 'da-1');
    const behind = [seenBy('db', { da: stamp(NOW - 20 * DAY, 'da-1') })];
    expect(tombstoneVerdict(t, { self: 'da', known: ['da', 'db'], seen: behind, lastExportAt: null, now: NOW })).toBeNull();
    expect(
      tombstoneVerdict(t, {
        self: 'da',
        known: ['da', 'db', 'dsilent'],
        seen: [seenBy('db', { da: stamp(NOW, 'da-1') })],
        lastExportAt: null,
        now: NOW,
      }),
    ).toBeNull();
  });

  it('a device that made the deletion has merged it', () => {
    const t = tomb(NOW - 10 * DAY, 'db-1');
    expect(tombstoneVerdict(t, { self: 'da', known: ['da', 'db'], seen: [seenBy('db', {})], lastExportAt: null, now: NOW })).toBe(
      'merged-everywhere',
    );
  });

  it('purges one older than 90 days once an export held it, and not before', () => {
    const t = tomb(NOW - 100 * DAY, 'da-1');
    const ctx = { self: 'da', known: ['da', 'db'], seen: [], now: NOW };
    expect(tombstoneVerdict(t, { ...ctx, lastExportAt: NOW - 50 * DAY })).toBe('old-and-exported');
    expect(tombstoneVerdict(t, { ...ctx, lastExportAt: NOW - 101 * DAY })).toBeNull();
    expect(tombstoneVerdict(t, { ...ctx, lastExportAt: null })).toBeNull();
    expect(tombstoneVerdict(tomb(NOW - 80 * DAY, 'da-1'), { ...ctx, lastExportAt: NOW })).toBeNull();
    expect(RETENTION.tombstoneMaxAgeMs).toBe(90 * DAY);
  });
});

describe('retention: history per note', () => {
  const entry = (recordId: string, at: number): HistoryRecord => ({
    id: `${recordId}-${at}`,
    table: 'notes',
    recordId,
    at,
    actor: 'user',
    action: 'edit',
    before: null,
    after: null,
    why: '',
  });

  it('keeps the newest entries of each note up to the cap and names the older ones', () => {
    const entries = [entry('a', 1), entry('a', 2), entry('a', 3), entry('a', 4), entry('b', 1), entry('b', 2)];
    expect(historyBeyondCap(entries, 2).sort()).toEqual(['a-1', 'a-2']);
    expect(historyBeyondCap(entries, 10)).toEqual([]);
  });
});
