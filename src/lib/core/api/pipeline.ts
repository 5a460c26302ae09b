import type { JobSpec, QueueSnapshot } from './jobs';

export interface PipelineReady {
  workerId: string;
  schemaVersion: number;
  /** Job types this worker runs. */
  handles: string[];
}

/**
 * The pipeline worker (workers/pipeline.worker.ts): runs the persistent job queue. The main thread
 * reaches it through comlink (src/lib/client/pipeline.svelte.ts).
 */
export interface PipelineApi {
  ready(): Promise<PipelineReady>;
  ping(): Promise<'pong'>;
  enqueue(spec: JobSpec): Promise<string>;
  snapshot(): Promise<QueueSnapshot>;
  /** `listener` is a comlink proxy; it receives a snapshot whenever the queue changes. */
  subscribe(listener: (snapshot: QueueSnapshot) => void): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  retry(jobId: string): Promise<boolean>;
}
