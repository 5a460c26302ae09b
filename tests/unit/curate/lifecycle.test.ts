import { describe, expect, it } from 'vitest';
import { applyChanges, historyFor, invertChanges } from '../../../src/lib/core/curate/changes';
import { clusterNearDuplicates, collapseClusterChanges } from '../../../src/lib/core/curate/clusters';
import { inDefaultRetrieval } from '../../../src/lib/core/curate/provenance';
import { planSweep, proposalKey, proposalNoteIds, toProposalRecords } from '../../../src/lib/core/curate/sweep';
import { sweepInputFrom } from '../../../src/lib/core/curate/sweep-input';
import { newerOf, supersedeChanges } from '../../../src/lib/core/curate/supersession';
import type { NoteRecord } from '../../../src/lib/core/records';
import { note } from '../../factories/records';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const map = (...notes: NoteRecord[]) => new Map(notes.map((n) => [n.id, n]));
let counter = 0;
const newId = () => `h${(counter += 1)}`;

describe('supersession', () => {
  const older = note({ id: 'old', text: 'The vault file is encrypted by default.', status: 'kept', keptAt: NOW - 10 * DAY });
  const newer = note({ id: 'new', text: 'The vault file is not encrypted by default.', status: 'kept', keptAt: NOW - DAY });

  it('links both notes and takes the older out of default retrieval, keeping it as a record', () => {
    const changes = supersedeChanges(newer, older, { now: NOW, why: 'accepted' });
    expect(changes.ok).toBe(true);
    if (!changes.ok) return;
    const applied = applyChanges(map(older, newer), changes.value);
    if (!applied.ok) throw new Error('conflict');
    expect(applied.notes.get('new')).toMatchObject({ supersedes: 'old', status: 'kept', updatedAt: NOW });
    expect(applied.notes.get('old')).toMatchObject({ status: 'superseded', supersededBy: 'new', text: older.text });
    expect(inDefaultRetrieval(applied.notes.get('old')!)).toBe(false);
    expect(inDefaultRetrieval(applied.notes.get('new')!)).toBe(true);
  });

  it('undo restores the exact prior state', () => {
    const changes = supersedeChanges(newer, older, { now: NOW, why: 'accepted' });
    if (!changes.ok) throw new Error('refused');
    const before = map(older, newer);
    const after = applyChanges(before, changes.value);
    if (!after.ok) throw new Error('conflict');
    const undone = applyChanges(after.notes, invertChanges(changes.value));
    expect(undone.ok && [...undone.notes.entries()]).toEqual([...before.entries()]);
  });

  it('writes one history entry per change with before and after', () => {
    const changes = supersedeChanges(newer, older, { now: NOW, why: 'accepted' });
    if (!changes.ok) throw new Error('refused');
    const history = historyFor(changes.value, { now: NOW, actor: 'user', newId });
    expect(history.map((h) => [h.recordId, h.action, h.table, h.at])).toEqual([
      ['new', 'supersede', 'notes', NOW],
      ['old', 'superseded', 'notes', NOW],
    ]);
    expect(history[1]?.before).toEqual(older);
    expect((history[1]?.after as NoteRecord).status).toBe('superseded');
  });

  it('refuses a pinned or already superseded older note, and a self-supersession', () => {
    expect(supersedeChanges(newer, { ...older, pinned: true }, { now: NOW, why: '' }).ok).toBe(false);
    expect(supersedeChanges(newer, { ...older, status: 'superseded' }, { now: NOW, why: '' }).ok).toBe(false);
    expect(supersedeChanges(newer, newer, { now: NOW, why: '' }).ok).toBe(false);
  });

  it('orders a conflicting pair by when it was kept', () => {
    expect(newerOf(older, newer)[0].id).toBe('new');
  });

  it('detects a stale change instead of overwriting', () => {
    const changes = supersedeChanges(newer, older, { now: NOW, why: '' });
    if (!changes.ok) throw new Error('refused');
    const edited = map({ ...older, text: 'edited meanwhile' }, newer);
    expect(applyChanges(edited, changes.value).ok).toBe(false);
  });
});

describe('near-duplicate clusters', () => {
  const kept = note({ id: 'a', text: 'Prune maples in late winter.', status: 'kept', keptAt: NOW - 5 * DAY, contentHash: 'h-a' });
  const earlierKept = note({
    id: 'b',
    text: 'Maples are pruned in late winter.',
    status: 'kept',
    keptAt: NOW - 9 * DAY,
    contentHash: 'h-b',
    sourceMessageIds: ['m2'],
    accessCount: 2,
  });
  const candidate = note({
    id: 'c',
    text: 'Prune maples in late winter.',
    status: 'provisional',
    contentHash: 'h-a',
    sourceMessageIds: ['m3'],
  });
  const negated = note({ id: 'd', text: 'Do not prune maples in late winter.', status: 'kept', keptAt: NOW, contentHash: 'h-d' });

  it('clusters by similarity and equal hashes; the highest provenance wins, ties by earliest keptAt', () => {
    const clusters = clusterNearDuplicates(
      [kept, earlierKept, candidate, negated],
      [
        { a: 'a', b: 'b', similarity: 0.95 },
        { a: 'a', b: 'd', similarity: 0.96 },
      ],
      0.92,
    );
    expect(clusters).toHaveLength(1);
    expect(clusters[0]?.canonical.id).toBe('b');
    expect(clusters[0]?.duplicates.map((d) => d.id).sort()).toEqual(['a', 'c']);
  });

  it('never merges a contradicting pair, whatever the similarity', () => {
    const clusters = clusterNearDuplicates([kept, negated], [{ a: 'a', b: 'd', similarity: 0.99 }], 0.92);
    expect(clusters).toEqual([]);
  });

  it('collapses a cluster into the canonical note, archiving the rest linked to it', () => {
    const [cluster] = clusterNearDuplicates([kept, earlierKept, candidate], [{ a: 'a', b: 'b', similarity: 0.95 }], 0.92);
    const changes = collapseClusterChanges(cluster!, NOW);
    const applied = applyChanges(map(kept, earlierKept, candidate), changes);
    if (!applied.ok) throw new Error('conflict');
    expect(applied.notes.get('b')?.sourceMessageIds.sort()).toEqual(['m2', 'm3', 'msg-1']);
    expect(applied.notes.get('b')?.accessCount).toBe(2);
    for (const id of ['a', 'c'])
      expect(applied.notes.get(id)).toMatchObject({ status: 'archived', supersededBy: 'b', flags: ['duplicate'] });
    const undone = applyChanges(applied.notes, invertChanges(changes));
    expect(undone.ok && undone.notes.get('a')).toEqual(kept);
  });

  it('a pinned note is canonical and pinned duplicates are left alone', () => {
    const pinned = { ...candidate, id: 'p', pinned: true, contentHash: 'h-a' };
    const [cluster] = clusterNearDuplicates([kept, pinned], [], 0.92);
    expect(cluster?.canonical.id).toBe('p');
    const twoPinned = clusterNearDuplicates([{ ...kept, pinned: true }, pinned], [], 0.92)[0]!;
    expect(collapseClusterChanges(twoPinned, NOW)).toEqual([]);
  });
});

describe('sweep plan', () => {
  it('proposes supersessions, collapses and curator classes as data, and deletes nothing by itself', () => {
    const notes = [
      note({ id: 'old', text: 'The vault file is encrypted by default.', status: 'kept', keptAt: NOW - 10 * DAY, contentHash: 'x1' }),
      note({ id: 'new', text: 'The vault file is not encrypted by default.', status: 'kept', keptAt: NOW - DAY, contentHash: 'x2' }),
      note({ id: 'd1', text: 'Prune maples in late winter.', status: 'kept', keptAt: NOW - DAY, contentHash: 'x3', lastAccessedAt: NOW }),
      note({ id: 'd2', text: 'Prune maples in late winter!', status: 'provisional', contentHash: 'x3' }),
      note({ id: 'stale', text: 'An old guess.', status: 'provisional', confidence: 0.2, createdAt: NOW - 60 * DAY, contentHash: 'x4' }),
      note({
        id: 'pin',
        text: 'Pinned forever.',
        status: 'kept',
        pinned: true,
        keptAt: NOW - 900 * DAY,
        createdAt: NOW - 900 * DAY,
        contentHash: 'x5',
      }),
    ];
    const before = map(...notes);
    const proposals = planSweep({
      notes,
      similarPairs: [],
      threshold: 0.92,
      acceptedSupersessions: [['new', 'old']],
      contradicted: new Set(),
      now: NOW,
    });
    expect(proposals.map((p) => p.type)).toEqual(['supersede', 'collapse-duplicates', 'curate']);
    const prune = proposals.find((p) => p.type === 'curate');
    expect(prune).toMatchObject({ noteId: 'stale', class: 'prune', needsConfirmation: true });
    expect(prune?.changes[0]?.after).toBeNull();
    expect(proposals.some((p) => p.changes.some((c) => c.recordId === 'pin'))).toBe(false);
    expect([...before.values()]).toEqual(notes);
  });
});

describe('sweep plan over scanned pairs', () => {
  it('proposes the newer of two contradicting kept notes to supersede the older, and merges duplicates, from the notes alone', () => {
    const notes = [
      note({
        id: 'old',
        text: 'Backups run every night at 2 am.',
        status: 'kept',
        keptAt: NOW - 10 * DAY,
        createdAt: NOW - 10 * DAY,
        contentHash: 'y1',
      }),
      note({
        id: 'new',
        text: 'Backups never run every night at 2 am.',
        status: 'kept',
        keptAt: NOW - DAY,
        createdAt: NOW - DAY,
        contentHash: 'y2',
      }),
      note({
        id: 'a',
        text: 'Prune Japanese maples in late winter.',
        status: 'kept',
        keptAt: NOW - 3 * DAY,
        createdAt: NOW - 3 * DAY,
        contentHash: 'y3',
      }),
      note({
        id: 'b',
        text: 'Japanese maples are pruned in late winter.',
        status: 'kept',
        keptAt: NOW - 2 * DAY,
        createdAt: NOW - 2 * DAY,
        contentHash: 'y4',
      }),
      note({
        id: 'c',
        text: 'The cat eats wet food twice a day.',
        status: 'kept',
        keptAt: NOW - DAY,
        createdAt: NOW - DAY,
        contentHash: 'y5',
      }),
    ];
    const proposals = planSweep(sweepInputFrom(notes, NOW));
    const supersede = proposals.find((p) => p.type === 'supersede');
    expect(supersede).toMatchObject({ newerId: 'new', olderId: 'old', reasons: [expect.stringContaining('contradict')] });
    const collapse = proposals.find((p) => p.type === 'collapse-duplicates');
    expect(collapse).toMatchObject({ canonicalId: 'a', duplicateIds: ['b'] });
    expect(proposals.some((p) => proposalNoteIds(p).includes('c'))).toBe(false);
  });

  it('a promotion of a kept note raises its confidence tier; stored proposals have stable ids and keys', () => {
    const edited = note({
      id: 'e',
      text: 'Water the fern on Sundays.',
      status: 'kept',
      keptAt: NOW - DAY,
      createdAt: NOW - DAY,
      flags: ['edited'],
      contentHash: 'z',
    });
    const proposals = planSweep(sweepInputFrom([edited], NOW));
    expect(proposals).toHaveLength(1);
    expect(proposals[0]!.changes[0]!.after).toMatchObject({ id: 'e', status: 'kept', confidenceTier: 'hot' });
    const records = toProposalRecords(proposals, 'sweep-1', NOW);
    expect(records[0]).toMatchObject({ id: 'sweep-1:0', type: 'promote', noteIds: ['e'], key: 'promote:e', status: 'pending' });
    expect(proposalKey('collapse-duplicates', ['b', 'a'])).toBe(proposalKey('collapse-duplicates', ['a', 'b']));
  });
});
