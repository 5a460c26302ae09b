import * as Comlink from 'comlink';
import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { CURATE_SWEEP_JOB, curateSweepJob, type CurationApi } from '../../../src/lib/core/api/curate-api';
import type { NotesApi } from '../../../src/lib/core/api/vault-api';
import type { JobRecord, NoteRecord, ProposalRecord } from '../../../src/lib/core/records';
import { planSweep, toProposalRecords } from '../../../src/lib/core/curate/sweep';
import { isSweptNote, sweepInputFrom } from '../../../src/lib/core/curate/sweep-input';
import { sweepHandler } from '../../../src/lib/services/curation/sweep-job';
import { CurationService } from '../../../src/lib/services/notes/curation-service';
import { NotesService } from '../../../src/lib/services/notes/notes-service';
import { PreferencesService } from '../../../src/lib/services/notes/preferences-service';
import { runRetention } from '../../../src/lib/store/retention';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { VaultViews } from '../../../src/lib/store/views/vault-views';
import { exposeApis } from '../../../workers/expose';
import { note } from '../../factories/records';

const NOW = 1_800_000_000_000;
let opened: Vault[] = [];

async function freshVault(): Promise<Vault> {
  const vault = await openVault(`curation-ui-${process.pid}-${Date.now()}-${opened.length}`);
  opened.push(vault);
  return vault;
}

afterEach(() => {
  for (const vault of opened) vault.db.close();
  opened = [];
});

/** The vault worker's notes and curation services, over a real MessageChannel (as the page reaches them). */
function vaultWorkerOver(vault: Vault): { remote: Comlink.Remote<CurationApi & NotesApi>; close(): void } {
  const { port1, port2 } = new MessageChannel();
  const get = async () => vault;
  exposeApis([new NotesService(get), new PreferencesService(get), new CurationService(get, { now: () => NOW })], port2);
  return {
    remote: Comlink.wrap<CurationApi & NotesApi>(port1),
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

function kept(id: string, text: string, over: Partial<NoteRecord> = {}): NoteRecord {
  return note({ id, text, status: 'kept', keptAt: NOW - 1_000, contentHash: id.padEnd(64, '0'), sourceMessageIds: [`msg-${id}`], ...over });
}

function proposal(id: string, type: ProposalRecord['type'], target: NoteRecord, over: Partial<ProposalRecord> = {}): ProposalRecord {
  const after: NoteRecord | null = type === 'prune' ? null : { ...target, status: 'archived', updatedAt: NOW };
  return {
    id,
    sweepId: 'sweep-1',
    createdAt: NOW - 10,
    status: 'pending',
    type,
    noteIds: [target.id],
    reasons: [`Reason for ${id}.`],
    needsConfirmation: type === 'prune',
    changes: [{ recordId: target.id, action: type, why: 'Faded.', before: target, after }],
    key: `${type}:${target.id}`,
    decidedAt: null,
    historyIds: [],
    checkpointId: null,
    ...over,
  };
}

/** Runs the real cleaning sweep handler once, as the pipeline worker's runner would. */
async function runSweep(vault: Vault): Promise<void> {
  const job = await vault.jobs.enqueue(curateSweepJob('on-demand'), NOW);
  await sweepHandler({ vault, now: () => NOW })({
    job: job as JobRecord,
    signal: new AbortController().signal,
    progress: () => undefined,
    checkpoint: async () => undefined,
  });
}

/** Watches a live query: `first` is its first value, `done` the first value for which `until` holds. */
function liveValues<T>(query: () => Promise<T>, until: (value: T) => boolean): { values: T[]; first: Promise<T>; done: Promise<T> } {
  const values: T[] = [];
  let resolve!: (value: T) => void;
  let resolveFirst!: (value: T) => void;
  const done = new Promise<T>((r) => (resolve = r));
  const first = new Promise<T>((r) => (resolveFirst = r));
  const sub = liveQuery(query).subscribe((value) => {
    values.push(value);
    if (values.length === 1) resolveFirst(value);
    if (until(value)) {
      sub.unsubscribe();
      resolve(value);
    }
  });
  return { values, first, done };
}

describe('the cleaning sweep through the vault worker API and the views', () => {
  it('lists pending proposals grouped by type (merges first, deletions last), not applied or dismissed ones', async () => {
    const vault = await freshVault();
    const [a, b, c, d] = [kept('note-a', 'A.'), kept('note-b', 'B.'), kept('note-c', 'C.'), kept('note-d', 'D.')];
    await vault.db.notes.bulkPut([a, b, c, d]);
    await vault.db.proposals.bulkPut([
      proposal('p-prune', 'prune', a),
      proposal('p-archive-2', 'archive', b, { createdAt: NOW - 5 }),
      proposal('p-archive-1', 'archive', c, { createdAt: NOW - 50 }),
      proposal('p-done', 'archive', d, { status: 'applied', decidedAt: NOW }),
      proposal('p-no', 'supersede', d, { status: 'dismissed', decidedAt: NOW }),
    ]);
    const groups = await new VaultViews(vault).pendingProposals();
    expect(groups.map((g) => g.type)).toEqual(['archive', 'prune']);
    expect(groups[0]!.proposals.map((p) => p.id)).toEqual(['p-archive-1', 'p-archive-2']);
    expect(groups[1]!.proposals.map((p) => p.id)).toEqual(['p-prune']);
  });

  it('a real sweep over kept near-duplicates proposes a merge; applying it over the worker API changes the notes and the live view drops it', async () => {
    const vault = await freshVault();
    await vault.db.notes.bulkPut([
      kept('note-1', 'I have decided to prune the Japanese maple in the courtyard in late February.'),
      kept('note-2', 'I decided to prune the Japanese maple in the courtyard in late February.'),
      kept('note-3', 'Moss prefers acidic and shaded soil in the garden.'),
    ]);
    const views = new VaultViews(vault);
    expect(await views.pendingProposals()).toEqual([]);
    await runSweep(vault);
    const groups = await views.pendingProposals();
    const merge = groups.find((g) => g.type === 'collapse-duplicates')?.proposals[0];
    expect(merge, JSON.stringify(groups.map((g) => g.type))).toBeDefined();
    expect([...merge!.noteIds].sort()).toEqual(['note-1', 'note-2']);
    expect(merge!.reasons.length).toBeGreaterThan(0);
    expect((await views.sweepState()).last?.duplicatePairs).toBe(1);

    const live = liveValues(
      () => views.pendingProposals(),
      (g) => !g.some((group) => group.proposals.some((p) => p.id === merge!.id)),
    );
    // The live view lists the merge first, then (after the apply) no longer does.
    expect((await live.first).some((group) => group.proposals.some((p) => p.id === merge!.id))).toBe(true);
    const { remote, close } = vaultWorkerOver(vault);
    try {
      const outcome = await remote.applyProposal(merge!.id, false);
      expect(outcome.checkpointId).not.toBeNull();
      expect(outcome.noteIds.length).toBeGreaterThan(0);
      await live.done;
      expect(live.values.length).toBeGreaterThanOrEqual(2);
      const statuses = (await vault.db.notes.bulkGet(['note-1', 'note-2'])).map((n) => n!.status).sort();
      expect(statuses).toEqual(['archived', 'kept']);
      // The checkpoint is listed, and rolling back over the API brings the archived note back.
      const [checkpoint] = await views.checkpoints();
      expect(checkpoint?.id).toBe(outcome.checkpointId);
      expect(checkpoint?.reason).toBe('sweep');
      expect(checkpoint?.entries).toBeGreaterThan(0);
      const back = await remote.rollbackTo(checkpoint!.id);
      expect(back.undone).toBe(1);
      expect((await vault.db.notes.bulkGet(['note-1', 'note-2'])).map((n) => n!.status)).toEqual(['kept', 'kept']);
      const after = await views.checkpoints();
      expect(after.map((c) => [c.reason, c.state])).toEqual([
        ['rollback', 'active'],
        ['sweep', 'rolled-back'],
      ]);
      // The proposal is pending again (the proposals table is logged too).
      expect((await vault.db.proposals.get(merge!.id))?.status).toBe('pending');
    } finally {
      close();
    }
  });

  it('the job and sweepInputFrom read the same notes (isSweptNote): resources and web pages are left out of both', async () => {
    const vault = await freshVault();
    const notes = [
      kept('note-1', 'I have decided to prune the Japanese maple in the courtyard in late February.'),
      kept('note-2', 'I decided to prune the Japanese maple in the courtyard in late February.'),
      kept('note-r1', 'Pasted guide: water the potted fig twice a week in the summer months.', { tier: 'resource' }),
      kept('note-r2', 'Pasted guide: water the potted fig twice a week in summer months.', { tier: 'resource' }),
      kept('note-w1', 'Web page: the allotment opens at eight on Saturdays from April to October.', { tier: 'web' }),
      kept('note-w2', 'Web page: the allotment opens at eight on Saturdays from April until October.', { tier: 'web' }),
    ];
    await vault.db.notes.bulkPut(notes);
    await runSweep(vault);
    const fromJob = (await vault.db.proposals.toArray()).map((p) => p.key).sort();
    const fromInput = toProposalRecords(planSweep(sweepInputFrom(notes, NOW)), 'sweep-x', NOW)
      .map((p) => p.key)
      .sort();
    expect(fromJob).toEqual(fromInput);
    expect(fromJob.length).toBeGreaterThan(0);
    expect(fromJob.join(' ')).not.toMatch(/note-[rw]/);
    expect(notes.filter(isSweptNote).map((n) => n.id)).toEqual(['note-1', 'note-2']);
  });

  it('a deletion needs confirmation over the API (the error keeps its code); dismiss and pin write through the worker', async () => {
    const vault = await freshVault();
    const [a, b] = [kept('note-a', 'Old.'), kept('note-b', 'Other.')];
    await vault.db.notes.bulkPut([a, b]);
    await vault.db.proposals.bulkPut([proposal('p-prune', 'prune', a), proposal('p-archive', 'archive', b)]);
    const views = new VaultViews(vault);
    const { remote, close } = vaultWorkerOver(vault);
    try {
      await expect(remote.applyProposal('p-prune', false)).rejects.toMatchObject({ code: 'input/invalid' });
      expect(await vault.db.notes.get('note-a')).toBeDefined();
      await remote.applyProposal('p-prune', true);
      expect(await vault.db.notes.get('note-a')).toBeUndefined();

      await remote.dismissProposal('p-archive');
      expect((await vault.db.proposals.get('p-archive'))?.status).toBe('dismissed');
      expect((await vault.db.notes.get('note-b'))?.status).toBe('kept');
      expect(await views.pendingProposals()).toEqual([]);
      await expect(remote.applyProposal('p-archive', false)).rejects.toMatchObject({ code: 'store/not-found' });

      const pinned = await remote.setPinned('note-b', true);
      expect(pinned.noteIds).toEqual(['note-b']);
      expect((await vault.db.notes.get('note-b'))?.pinned).toBe(true);
      await remote.setPinned('note-b', false);
      expect((await vault.db.notes.get('note-b'))?.pinned).toBe(false);
    } finally {
      close();
    }
  });

  it('sweepState: a queued sweep is active, a sweep that died after the last finished one is reported', async () => {
    const vault = await freshVault();
    const views = new VaultViews(vault);
    expect(await views.sweepState()).toEqual({ active: null, failed: null, last: null });
    const job = await vault.jobs.enqueue(curateSweepJob('on-demand'), NOW);
    expect((await views.sweepState()).active).toEqual({ jobId: job.id, status: 'pending' });
    await vault.db.jobs.update(job.id, { status: 'dead', updatedAt: NOW + 5, error: { code: 'x', message: 'Out of memory.' } });
    const state = await views.sweepState();
    expect(state.active).toBeNull();
    expect(state.failed).toEqual({ jobId: job.id, message: 'Out of memory.' });
    expect(job.type).toBe(CURATE_SWEEP_JOB);
    // A sweep that finished after it hides the old failure.
    await vault.settings.set('curate.lastSweep', {
      sweepId: 's',
      reason: 'on-demand',
      startedAt: NOW + 6,
      finishedAt: NOW + 10,
      notes: 0,
      compared: 0,
      candidatePairs: 0,
      duplicatePairs: 0,
      contradictions: 0,
      proposals: {},
      skippedDismissed: 0,
      threadMaps: 0,
    });
    expect((await views.sweepState()).failed).toBeNull();
  });

  it('retention: no report before the first purge, then what it removed; table sizes count each table', async () => {
    const vault = await freshVault();
    await vault.db.notes.bulkPut([kept('note-a', 'A.'), kept('note-b', 'B.')]);
    const old = await vault.jobs.enqueue({ type: 'verify.hashes', payload: {} }, NOW - 30 * 86_400_000);
    await vault.db.jobs.update(old.id, { status: 'done', updatedAt: NOW - 30 * 86_400_000 });
    const views = new VaultViews(vault);
    expect(await views.retentionReport()).toBeNull();
    const before = await views.tableSizes();
    expect(before.notes).toBe(2);
    expect(before.jobs).toBe(1);
    await runRetention(vault, NOW);
    const report = await views.retentionReport();
    expect(report?.at).toBe(NOW);
    expect(report?.removed.jobs).toBe(1);
    const after = await views.tableSizes();
    expect(after.jobs).toBe(0);
    expect(after.notes).toBe(2);
  });
});
