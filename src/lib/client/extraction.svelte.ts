import { liveQuery, type Subscription } from 'dexie';
import { EXTRACT_JOB } from '../core/api/extract-api';
import { summarizeJobs, type ExtractionProgress } from './extraction-progress';
import { vaultViews } from '../store/views/vault-views';

export type { ExtractionProgress } from './extraction-progress';

/** Extraction's progress, live from the job queue (extraction-progress.ts reads it). */
class ExtractionWatcher {
  progress = $state<ExtractionProgress | null>(null);
  private subscription: Subscription | null = null;

  start(): void {
    if (this.subscription) return;
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.jobsOfType(EXTRACT_JOB)).subscribe({
        next: (jobs) => (this.progress = jobs.length > 0 ? summarizeJobs(jobs) : null),
        error: () => (this.progress = null),
      });
    });
  }
}

export const extraction = new ExtractionWatcher();
