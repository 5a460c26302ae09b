/**
 * The cleaning sweep's proposals, pins, copied packages and checkpoints, as the vault worker runs
 * them (the sweep itself runs in the pipeline worker: services/curation/sweep-job.ts). Applying a
 * proposal writes its note changes with history (each undoable from the note's history) after the
 * sweep's checkpoint (one per sweep, listed in Settings); a deletion needs the person's
 * confirmation. A roll-back holds the vault-file lock, so it never interleaves with a merge.
 */
import type { BulkOutcome, CurationApi, ProposalOutcome } from '../../core/api/curate-api';
import type { ActionOutcome } from '../../core/api/vault-api';
import { fail } from '../../core/errors';
import type { ProposalRecord, ProposalType } from '../../core/records';
import { INDEX_REBUILD_JOB } from '../../store/vaultfile-commit';
import { rollbackTo } from '../../store/checkpoints';
import { applyNoteChanges, setPinned } from '../../store/note-actions';
import type { Vault } from '../../store/vault';
import { isVaultError } from '../../core/errors';
import { whileHolding } from '../locks';
import { vaultFileLockName } from '../vault-file/vault-file-service';

const sweepCheckpoint = (proposal: ProposalRecord) => ({
  reason: 'sweep' as const,
  label: `Before applying the cleaning sweep of ${new Date(proposal.createdAt).toISOString().slice(0, 16).replace('T', ' ')}`,
  key: `sweep:${proposal.sweepId}`,
});

export class CurationService implements CurationApi {
  constructor(
    private readonly vault: () => Promise<Vault>,
    private readonly options: { now?: () => number; locks?: LockManager } = {},
  ) {}

  #now(): number {
    return (this.options.now ?? Date.now)();
  }

  async applyProposal(id: string, confirmed: boolean): Promise<ProposalOutcome> {
    const vault = await this.vault();
    const proposal = await vault.proposals.get(id);
    if (!proposal || proposal.status !== 'pending') fail('store/not-found', 'That proposal is no longer pending; the list has changed.');
    if (proposal.needsConfirmation && !confirmed) fail('input/invalid', 'A deletion is applied only after you confirm it.');
    const outcome = await applyNoteChanges(vault, proposal.changes, {
      actor: 'curator',
      now: this.#now(),
      checkpoint: sweepCheckpoint(proposal),
      proposalId: proposal.id,
    });
    return { ...outcome, checkpointId: (await vault.proposals.get(id))?.checkpointId ?? null };
  }

  async applyAllProposals(type: ProposalType): Promise<BulkOutcome> {
    const vault = await this.vault();
    const pending = (await vault.proposals.pendingOfType(type)).filter((p) => !p.needsConfirmation);
    let applied = 0;
    let conflicts = 0;
    let checkpointId: string | null = null;
    for (const proposal of pending) {
      try {
        await applyNoteChanges(vault, proposal.changes, {
          actor: 'curator',
          now: this.#now(),
          checkpoint: sweepCheckpoint(proposal),
          proposalId: proposal.id,
        });
        applied++;
        checkpointId ??= (await vault.proposals.get(proposal.id))?.checkpointId ?? null;
      } catch (thrown) {
        // A note changed since the sweep (or another proposal of this batch touched it), or the
        // quality gate refuses keeping its candidate as it is: leave it pending.
        if (isVaultError(thrown) && (thrown.code === 'store/conflict' || thrown.code === 'curate/gate-refused')) conflicts++;
        else throw thrown;
      }
    }
    return { applied, conflicts, checkpointId };
  }

  async dismissProposal(id: string): Promise<void> {
    await (await this.vault()).proposals.dismiss(id, this.#now());
  }

  async setPinned(noteId: string, pinned: boolean): Promise<ActionOutcome> {
    return setPinned(await this.vault(), noteId, pinned, this.#now());
  }

  async recordCopied(items: { id: string; kind: 'note' | 'chunk' }[]): Promise<number> {
    const at = this.#now();
    return (await this.vault()).reads.recordCopies(items.map((item) => ({ id: item.id, kind: item.kind, at })));
  }

  async rollbackTo(checkpointId: string): Promise<{ rows: number; undone: number; rollbackCheckpointId: string }> {
    const vault = await this.vault();
    const done = await whileHolding(this.options.locks, vaultFileLockName(vault.db.name), async () => {
      const report = await rollbackTo(vault.db, checkpointId, this.#now());
      await vault.jobs.enqueue(
        { type: INDEX_REBUILD_JOB, payload: { reason: 'rollback', at: this.#now() }, dedupeKey: INDEX_REBUILD_JOB, priority: 50 },
        this.#now(),
      );
      return report;
    });
    if (!done)
      fail('vault/failed', 'The vault file is being exported or imported in another tab; roll back when it has finished.', { busy: true });
    return { rows: done.rows, undone: done.undone.length, rollbackCheckpointId: done.rollbackCheckpointId };
  }
}
