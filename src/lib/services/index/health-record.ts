/**
 * The serving index's last health report (recall@10 of HNSW against exact search), kept in the
 * index cache so a restart shows it, and when the next check is due.
 */
import type { HealthReport } from '../../core/api/index-api';
import type { BlobStore } from '../../store/vector-index-manifest';
import type { ChangeFeed } from './change-feed';
import type { ModelIndex } from './model-index';

const DAY_MS = 86_400_000;

export const healthKey = (scope: string): string => `health:${scope}`;

export class HealthRecord {
  private last: HealthReport | null = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly scope: string,
    private readonly feed: ChangeFeed,
  ) {}

  get report(): HealthReport | null {
    return this.last;
  }

  async load(): Promise<void> {
    this.last = (await this.blobs.get<HealthReport>(healthKey(this.scope))) ?? null;
  }

  async record(report: HealthReport, options: { save: boolean }): Promise<void> {
    this.last = report;
    if (options.save) await this.blobs.put(healthKey(this.scope), report);
    this.feed.emit();
  }

  /** Another embedder serves now: the report is about an index that is gone. */
  forget(): void {
    this.last = null;
  }

  /**
   * Whether an embedding pass should end with a check: none yet, another embedder, the index grew
   * or shrank by a tenth since, or a day went by (a check scans every vector once).
   */
  due(model: ModelIndex | null, now: number): boolean {
    if (!model) return false;
    const last = this.last;
    if (!last || last.embedderId !== model.embedderId) return true;
    const count = model.index.count;
    return Math.abs(count - last.vectors) > Math.max(10, last.vectors * 0.1) || now - last.checkedAt > DAY_MS;
  }
}
