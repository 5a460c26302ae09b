import { liveQuery, type Subscription } from 'dexie';
import { EXTRACT_JOB } from '../core/api/extract-api';
import { vaultViews, type ExtractionProgress } from '../store/views/vault-views';

export type { ExtractionProgress } from '../store/views/vault-views';

/** Extraction's progress, live from the job queue (store/views/extraction-view.ts reads it). */
class ExtractionWatcher {
  progress = $state<ExtractionProgress | null>(null);
  private subscription: Subscription | null = null;

  start(): void {
    if (this.subscription) return;
    void vaultViews().then((views) => {
      this.subscription = liveQuery(() => views.extractionProgress(EXTRACT_JOB)).subscribe({
        next: (progress) => (this.progress = progress),
        error: () => (this.progress = null),
      });
    });
  }
}

export const extraction = new ExtractionWatcher();
