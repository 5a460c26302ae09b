import { describe, expect, it } from 'vitest';
import { classifyNote } from '../../../src/lib/core/curate/curator-classes';
import { provenanceOf } from '../../../src/lib/core/curate/provenance';
import { note } from '../../factories/records';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const classOf = (over: Parameters<typeof note>[0], contradicted = false) => classifyNote(note(over), { now: NOW, contradicted }).class;
const verdictOf = (over: Parameters<typeof note>[0], signals: { sourceCopies?: number; saidAt?: number } = {}) =>
  classifyNote(note(over), { now: NOW, contradicted: false, ...signals });

describe('curator classes', () => {
  it('promotes a candidate that is read often or is highly confident', () => {
    expect(classOf({ status: 'provisional', accessCount: 3, createdAt: NOW - DAY })).toBe('promote');
    expect(classOf({ status: 'provisional', confidence: 0.95, createdAt: NOW - DAY })).toBe('promote');
  });

  it('keeps a fresh candidate awaiting review and a kept note in use', () => {
    expect(classOf({ status: 'provisional', confidence: 0.6, createdAt: NOW - DAY })).toBe('keep');
    expect(classOf({ status: 'kept', keptAt: NOW - 400 * DAY, accessCount: 5, lastAccessedAt: NOW - DAY })).toBe('keep');
  });

  it('archives a kept note that decayed past its half-life unread and uncopied, or one contradicted by a newer note', () => {
    const kept = { status: 'kept' as const, keptAt: NOW - 800 * DAY, createdAt: NOW - 800 * DAY };
    // Warm: half-life 2 years.
    expect(classOf({ ...kept, accessCount: 0 })).toBe('archive');
    expect(verdictOf({ ...kept }).reasons[0]).toMatch(/faded to \d+% .* not read in 800 days/u);
    expect(classOf({ status: 'kept', keptAt: NOW - 600 * DAY, createdAt: NOW - 600 * DAY })).toBe('keep');
    // Reads restart the clock and lengthen the half-life; a copy says it is in use; Hot lasts longer.
    expect(classOf({ ...kept, accessCount: 2, lastAccessedAt: NOW - 100 * DAY })).toBe('keep');
    expect(classOf({ ...kept, copyCount: 1 })).toBe('keep');
    expect(classOf({ ...kept, confidenceTier: 'hot' })).toBe('keep');
    expect(classOf({ status: 'kept', keptAt: NOW - DAY, lastAccessedAt: NOW }, true)).toBe('archive');
  });

  it('archives a kept note a month after its stated validity ended', () => {
    const said = NOW - 60 * DAY;
    const week = { status: 'kept' as const, text: 'The nursery is closed for repairs this week.', keptAt: said, createdAt: said };
    expect(verdictOf(week, { saidAt: said })).toMatchObject({ class: 'archive', reasons: [expect.stringContaining('this week')] });
    expect(verdictOf(week, { saidAt: NOW - 10 * DAY }).class).toBe('keep');
  });

  it('promotes on recorded signals and says why: pins, copied source turns, copies, kept edits', () => {
    expect(verdictOf({ status: 'provisional', createdAt: NOW - DAY }, { sourceCopies: 2 })).toMatchObject({
      class: 'promote',
      reasons: [expect.stringContaining('packages you copied 2 times')],
    });
    expect(verdictOf({ status: 'provisional', createdAt: NOW - DAY }, { sourceCopies: 1 }).class).toBe('keep');
    const kept = { status: 'kept' as const, keptAt: NOW - DAY, createdAt: NOW - DAY };
    expect(verdictOf({ ...kept, copyCount: 3 })).toMatchObject({
      class: 'promote',
      tier: 'hot',
      reasons: [expect.stringContaining('3 times')],
    });
    expect(verdictOf({ ...kept, copyCount: 2 }).class).toBe('keep');
    expect(verdictOf({ ...kept, flags: ['edited'] })).toMatchObject({
      class: 'promote',
      tier: 'hot',
      reasons: ['you edited it before keeping it'],
    });
    // Hot is as far as a promotion goes: Core is a pin.
    expect(verdictOf({ ...kept, copyCount: 9, confidenceTier: 'hot' }).class).toBe('keep');
    expect(verdictOf({ ...kept, copyCount: 9, pinned: true }).class).toBe('keep');
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
