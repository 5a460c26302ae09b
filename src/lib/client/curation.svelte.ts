import { curateSweepJob } from '../core/api/curate-api';
import type { CheckpointRecord, ProposalRecord } from '../core/records';
import type { RetentionReport, TableSizes } from '../core/api/curate-api';
import { vaultViews, type ProposalGroup, type SweepState, type VaultViews } from '../store/views/vault-views';
import { errors } from './errors.svelte';
import { watchView } from './watch-view';
import { pipeline } from './pipeline.svelte';
import { vaultWorker } from './vault-worker';

export type { ProposalGroup, SweepState } from '../store/views/vault-views';

/** Watches one view query while started, reporting a failure to the error center; `stop` ends it. */
function watch<T>(read: (views: VaultViews) => Promise<T>, next: (value: T) => void, context: string): () => void {
  return watchView(read, next, (error: unknown) => errors.report(error, context));
}

/**
 * The Notes screen's cleaning sweep: the stored proposals of the last sweep (the sweep runs as a
 * background job in the pipeline worker), applied or dismissed one by one through the vault worker
 * (a deletion only with the person's confirmation), "Sweep now", and the pin of each kept note.
 */
export class SweepController {
  groups = $state<ProposalGroup[]>([]);
  state = $state<SweepState | null>(null);
  loaded = $state(false);
  busy = $state(false);
  /** Between the click on "Sweep now" and the queued job showing in the view. */
  queueing = $state(false);
  /** What the last action did, in a sentence (announced politely). */
  message = $state<string | null>(null);
  private stops: (() => void)[] = [];

  readonly running = $derived(this.queueing || this.state?.active != null);
  readonly pendingCount = $derived(this.groups.reduce((n, g) => n + g.proposals.length, 0));

  start(): void {
    if (this.stops.length) return;
    this.stops = [
      watch(
        (views) => views.pendingProposals(),
        (groups) => {
          this.groups = groups;
          this.loaded = true;
        },
        'reading cleaning proposals',
      ),
      watch(
        (views) => views.sweepState(),
        (state) => (this.state = state),
        'reading the cleaning sweep',
      ),
    ];
  }

  stop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
  }

  private async run(context: string, work: () => Promise<string | null>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    try {
      this.message = await work();
      return true;
    } catch (error) {
      errors.report(error, context);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Queues the cleaning sweep in the pipeline worker (one at a time: the queue dedupes it). */
  async sweepNow(): Promise<void> {
    if (this.running) return;
    this.queueing = true;
    try {
      await this.run('starting the cleaning sweep', async () => {
        await pipeline().enqueue(curateSweepJob('on-demand'));
        return 'The cleaning sweep is queued; its proposals appear here when it finishes.';
      });
    } finally {
      // From here the view's queued or running job says whether it runs (it may have finished already).
      this.queueing = false;
    }
  }

  /** Applies a proposal (`confirmed` must be true for a deletion). */
  apply(proposal: ProposalRecord, confirmed = false): Promise<boolean> {
    return this.run('applying a cleaning proposal', async () => {
      const outcome = await vaultWorker().call('applyProposal', [proposal.id, confirmed]);
      const n = outcome.noteIds.length;
      return `Applied: ${n} note${n === 1 ? '' : 's'} changed. Undo it from a note's history, or roll back in Settings.`;
    });
  }

  dismiss(proposal: ProposalRecord): Promise<boolean> {
    return this.run('dismissing a cleaning proposal', async () => {
      await vaultWorker().call('dismissProposal', [proposal.id]);
      return 'Dismissed: the sweep will not propose it again.';
    });
  }

  setPinned(noteId: string, pinned: boolean): Promise<boolean> {
    return this.run(pinned ? 'pinning a note' : 'unpinning a note', async () => {
      await vaultWorker().call('setPinned', [noteId, pinned]);
      return pinned ? 'Pinned: the note is Core in every package and never archived.' : 'Unpinned.';
    });
  }
}

/** Settings: the checkpoints (roll the vault back to one), the retention report and the rows per table. */
export class VaultKeepingController {
  checkpoints = $state<CheckpointRecord[]>([]);
  /** The last retention report (null: none yet; undefined: not read yet). */
  report = $state<RetentionReport | null | undefined>(undefined);
  /** The rows each table holds, counted when asked (`countTables`); null until then. */
  tables = $state<{ sizes: TableSizes; at: number } | null>(null);
  countingTables = $state(false);
  loaded = $state(false);
  busy = $state(false);
  message = $state<string | null>(null);
  private stops: (() => void)[] = [];

  start(): void {
    if (this.stops.length) return;
    this.stops = [
      watch(
        (views) => views.checkpoints(),
        (list) => {
          this.checkpoints = list;
          this.loaded = true;
        },
        'reading checkpoints',
      ),
      watch(
        (views) => views.retentionReport(),
        (report) => (this.report = report),
        'reading the retention report',
      ),
    ];
  }

  /**
   * Counts every table's rows now. Not watched: a count walks the whole table, and a watched one
   * re-ran on every write of the index (seconds each at 300k rows).
   */
  async countTables(): Promise<void> {
    if (this.countingTables) return;
    this.countingTables = true;
    try {
      const sizes = await (await vaultViews()).tableSizes();
      this.tables = { sizes, at: Date.now() };
    } catch (error) {
      errors.report(error, 'counting the rows of each table');
    } finally {
      this.countingTables = false;
    }
  }

  stop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
  }

  /** Rolls the vault back to the checkpoint (the person confirmed it); the index is rebuilt after. */
  async rollback(checkpoint: CheckpointRecord): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.message = null;
    try {
      const done = await vaultWorker().call('rollbackTo', [checkpoint.id]);
      this.message = `Rolled back to “${checkpoint.label}”: ${done.rows} row${done.rows === 1 ? '' : 's'} restored, ${done.undone} checkpoint${done.undone === 1 ? '' : 's'} undone. The search index is being rebuilt.`;
      // Rows per table, when shown, are counted again (they are not watched).
      if (this.tables) void this.countTables();
      return true;
    } catch (error) {
      errors.report(error, 'rolling the vault back');
      return false;
    } finally {
      this.busy = false;
    }
  }
}

let sweep: SweepController | null = null;
let keeping: VaultKeepingController | null = null;

export function sweepScreen(): SweepController {
  sweep ??= new SweepController();
  return sweep;
}

export function vaultKeeping(): VaultKeepingController {
  keeping ??= new VaultKeepingController();
  return keeping;
}
