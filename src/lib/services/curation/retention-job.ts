/**
 * Retention as a background job (`vault.retention`, pipeline worker): the store's purge
 * (store/retention.ts) with a yield between its parts, so the lease heartbeat keeps beating. Its
 * report is the job's result and the setting `retention.last` (Settings shows it).
 */
import { RETENTION_JOB } from '../../core/api/curate-api';
import type { JobHandler } from '../../store/job-runner';
import { runRetention } from '../../store/retention';
import type { Vault } from '../../store/vault';

export { RETENTION_JOB };

export function retentionHandler(vault: Vault, now: () => number = Date.now): JobHandler {
  return async (ctx) => {
    const between = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (ctx.signal.aborted) throw ctx.signal.reason;
    };
    return runRetention(vault, now(), between);
  };
}
