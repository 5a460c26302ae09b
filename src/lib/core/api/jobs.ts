import type { JobRecord, JobStatus } from '../records';

/** What a caller asks the queue for. */
export interface JobSpec {
  type: string;
  payload: unknown;
  priority?: number;
  maxAttempts?: number;
  dedupeKey?: string;
  runAfter?: number;
}

/** Progress of one running job, as the UI shows it. */
export interface JobProgress {
  jobId: string;
  type: string;
  done: number;
  total: number;
  unit: string;
  ratePerSecond: number | null;
  etaMs: number | null;
}

export type QueueCounts = Record<JobStatus, number>;

/** Everything the UI needs to draw the queue: counts, running jobs with progress, dead jobs. */
export interface QueueSnapshot {
  at: number;
  paused: boolean;
  counts: QueueCounts;
  running: JobProgress[];
  dead: Pick<JobRecord, 'id' | 'type' | 'attempts' | 'error' | 'updatedAt'>[];
}
