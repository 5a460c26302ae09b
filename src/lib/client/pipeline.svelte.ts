import * as Comlink from 'comlink';
import type { JobSpec, QueueSnapshot } from '../core/api/jobs';
import type { PipelineApi } from '../core/api/pipeline';
import { vaultWorkerName } from '../core/api/vaults';
import { errors } from './errors.svelte';
import { RpcClient } from './rpc';
import { vaultSession } from './vault-session.svelte';

/** Main-thread face of the pipeline worker: queue state as runes, and the queue's commands. */
export class PipelineClient {
  snapshot = $state<QueueSnapshot | null>(null);
  status = $state<'starting' | 'ready' | 'failed'>('starting');
  private readonly rpc: RpcClient<PipelineApi>;

  constructor() {
    this.rpc = new RpcClient<PipelineApi>({
      name: 'background worker',
      timeoutMs: 30_000,
      spawn: () =>
        // A worker script URL, not reactive state.
        // eslint-disable-next-line svelte/prefer-svelte-reactivity
        new Worker(new URL('../../../workers/pipeline.worker.ts', import.meta.url), {
          type: 'module',
          name: vaultWorkerName('pipeline', vaultSession.dbName),
        }),
      onRestart: (reason) => {
        errors.report(reason, 'background jobs');
        void this.connect();
      },
    });
  }

  /** Waits for the worker and subscribes to queue changes. */
  async connect(): Promise<void> {
    try {
      await this.rpc.call('ready', [], 60_000);
      await this.rpc.call('subscribe', [Comlink.proxy((snapshot: QueueSnapshot) => (this.snapshot = snapshot))]);
      this.status = 'ready';
    } catch (error) {
      this.status = 'failed';
      errors.report(error, 'starting background jobs');
    }
  }

  enqueue(spec: JobSpec): Promise<string> {
    return this.rpc.call('enqueue', [spec]);
  }

  pause(): Promise<void> {
    return this.rpc.call('pause', []);
  }

  resume(): Promise<void> {
    return this.rpc.call('resume', []);
  }

  retry(jobId: string): Promise<boolean> {
    return this.rpc.call('retry', [jobId]);
  }
}

let instance: PipelineClient | null = null;

/** The app's one pipeline client, started on first use (browser only). */
export function pipeline(): PipelineClient {
  if (!instance) {
    instance = new PipelineClient();
    void instance.connect();
  }
  return instance;
}
