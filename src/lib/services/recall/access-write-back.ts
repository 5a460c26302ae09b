/**
 * Access write-back: the notes and chunks a recall showed get their access count and time written, in one
 * batched transaction after the answer went out. Recall never waits for it; a failure is reported,
 * never thrown at the reader. Reads of the same item within one batch count once per recall.
 */
import type { AccessWrite } from '../../core/recall/types';
import type { Vault } from '../../store/vault';

export class AccessWriteBack {
  private queue: AccessWrite[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly vault: Pick<Vault, 'reads'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Queues reads; the write starts on a later task. */
  push(writes: readonly AccessWrite[]): void {
    if (writes.length === 0) return;
    this.queue.push(...writes);
    this.flushing ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        await this.vault.reads.recordReads(batch).catch(this.onError);
      }
    } finally {
      this.flushing = null;
    }
  }

  /** Resolves when every queued read is written (tests, and before a worker closes). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }
}
