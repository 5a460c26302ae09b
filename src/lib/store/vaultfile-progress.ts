import type { VaultFilePhase, VaultFileProgressFn } from '../core/api/vault-file';
import { fail } from '../core/errors';

/** Progress of one phase, reported at most every `intervalMs` (a comlink callback is a message). */
export class PhaseProgress {
  private done = 0;
  private lastReport = 0;

  constructor(
    private readonly onProgress: VaultFileProgressFn | undefined,
    private readonly phase: VaultFilePhase,
    private readonly total: number,
    private readonly intervalMs = 100,
  ) {
    this.report(true);
  }

  add(records: number): void {
    this.done += records;
    this.report(false);
  }

  finish(): void {
    this.report(true);
  }

  private report(force: boolean): void {
    if (!this.onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastReport < this.intervalMs) return;
    this.lastReport = now;
    this.onProgress({ phase: this.phase, done: Math.min(this.done, this.total), total: this.total, unit: 'records' });
  }
}

/** Stops an export, restore or merge that was cancelled. Nothing of the vault has changed at that point. */
export function throwIfCancelled(signal: AbortSignal | undefined, operation: 'export' | 'restore' | 'merge'): void {
  if (!signal?.aborted) return;
  if (operation === 'export') fail('vault/failed', 'The export was cancelled.', { cancelled: true });
  fail('import/cancelled', `The ${operation} was cancelled; the vault is unchanged.`, { cancelled: true });
}
