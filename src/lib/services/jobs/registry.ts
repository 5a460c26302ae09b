import { CURATE_SWEEP_JOB, RETENTION_JOB } from '../../core/api/curate-api';
import type { JobHandler } from '../../store/job-runner';
import type { Vault } from '../../store/vault';
import { retentionHandler } from '../curation/retention-job';
import { sweepHandler } from '../curation/sweep-job';
import { VERIFY_HASHES, verifyHashesHandler } from './verify-hashes';

/**
 * Every job type the pipeline worker runs, by name: the integrity check, the cleaning sweep and
 * retention. They need the store only, and run off the index worker's thread (recall and embedding
 * never wait behind a sweep).
 */
export function pipelineHandlers(vault: Vault, now: () => number = Date.now): Record<string, JobHandler> {
  return {
    [VERIFY_HASHES]: verifyHashesHandler(vault),
    [CURATE_SWEEP_JOB]: sweepHandler({ vault, now }),
    [RETENTION_JOB]: retentionHandler(vault, now),
  };
}
