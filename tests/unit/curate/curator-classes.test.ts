import { describe, expect, it } from 'vitest';
import { classifyNote } from '../../../src/lib/core/curate/curator-classes';
import { provenanceOf } from '../../../src/lib/core/curate/provenance';
import { note } from '../../factories/records';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const classOf = (over: Parameters<typeof note>[0], contradicted = false) => classifyNote(note(over), { now: NOW, contradicted }).class;

describe('curator classes', () => {
  it('promotes a candidate that is read often or is highly confident', () => {
    expect(classOf({ status: 'provisional', accessCount: 3, createdAt: NOW - DAY })).toBe('promote');
    expect(classOf({ status: 'provisional', confidence: 0.95, createdAt: NOW - DAY })).toBe('promote');
  });

  it('keeps a fresh candidate awaiting review and a kept note in use', () => {
    expect(classOf({ status: 'provisional', confidence: 0.6, createdAt: NOW - DAY })).toBe('keep');
    expect(classOf({ status: 'kept', keptAt: NOW - 400 * DAY, accessCount: 5, lastAccessedAt: NOW - DAY })).toBe('keep');
  });

  it('archives a kept note unread for 180 days, or one contradicted by a newer note', () => {
    expect(classOf({ status: 'kept', keptAt: NOW - 200 * DAY, createdAt: NOW - 200 * DAY, accessCount: 1 })).toBe('archive');
    expect(classOf({ status: 'kept', keptAt: NOW - DAY, lastAccessedAt: NOW }, true)).toBe('archive');
  });

  it('proposes pruning stale low-confidence candidates, old discarded notes and long-unread superseded notes', () => {
    expect(classOf({ status: 'provisional', confidence: 0.3, createdAt: NOW - 40 * DAY })).toBe('prune');
    expect(classOf({ status: 'discarded', confidence: 0.9, createdAt: NOW - 40 * DAY })).toBe('prune');
    expect(classOf({ status: 'superseded', createdAt: NOW - 400 * DAY })).toBe('prune');
    expect(classOf({ status: 'superseded', createdAt: NOW - 10 * DAY })).toBe('keep');
  });

  it('never archives or prunes a pinned note, whatever the signals', () => {
    expect(classOf({ status: 'kept', pinned: true, keptAt: NOW - 900 * DAY, createdAt: NOW - 900 * DAY }, true)).toBe('keep');
    expect(classOf({ status: 'superseded', pinned: true, createdAt: NOW - 900 * DAY })).toBe('keep');
    expect(classOf({ status: 'provisional', pinned: true, confidence: 0.1, createdAt: NOW - 900 * DAY })).toBe('promote');
  });

  it('weights provenance by tier, and an unreviewed engram as chat', () => {
    expect(provenanceOf({ tier: 'engram', status: 'kept' })).toBe(1);
    expect(provenanceOf({ tier: 'engram', status: 'provisional' })).toBe(0.6);
    expect(provenanceOf({ tier: 'resource', status: 'kept' })).toBe(0.8);
    expect(provenanceOf({ tier: 'web', status: 'kept' })).toBe(0.1);
  });
});
