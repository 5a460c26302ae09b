import { liveQuery, type Subscription } from 'dexie';
import { EXTRACT_JOB } from '../core/api/extract-api';
import { summarizeJobs, type ExtractionProgress } from './extraction-progress';
import { mainVault } from './vault';

export type { ExtractionProgress } from './extraction-progress';

/** Extraction's progress, live from the job queue (extraction-progress.ts reads it). */
class ExtractionWatcher {
  progress = $state<ExtractionProgress | null>(null);
  private subscription: Subscription | null = null;

  start(): void {
    if (this.subscription) return;
    void mainVault().then((vault) => {
      this.subscription = liveQuery(() => vault.db.jobs.where('type').equals(EXTRACT_JOB).toArray()).subscribe({
        next: (jobs) => (this.progress = jobs.length > 0 ? summarizeJobs(jobs) : null),
        error: () => (this.progress = null),
      });
    });
  }
}

export const extraction = new ExtractionWatcher();
