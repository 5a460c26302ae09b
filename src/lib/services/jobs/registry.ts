import type { JobHandler } from '../../store/job-runner';
import type { Vault } from '../../store/vault';
import { VERIFY_HASHES, verifyHashesHandler } from './verify-hashes';

/** Every job type the pipeline worker runs, by name. */
export function pipelineHandlers(vault: Vault): Record<string, JobHandler> {
  return {
    [VERIFY_HASHES]: verifyHashesHandler(vault),
  };
}
