import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { JobRunner } from '../../../src/lib/store/job-runner';
import { openVault } from '../../../src/lib/store/vault';
import { VERIFY_HASHES } from '../../../src/lib/services/jobs/verify-hashes';
import { pipelineHandlers } from '../../../src/lib/services/jobs/registry';
import { message } from '../../factories/records';

describe('vault.verify-hashes job', () => {
  it('checks every message in pages and lists those whose text no longer matches its hash', async () => {
    const vault = await openVault(`verify-${Date.now()}`);
    const rows = await Promise.all(
      Array.from({ length: 1_203 }, async (_, i) => {
        const text = `message number ${i}`;
        return message({ id: `msg-${String(i).padStart(5, '0')}`, ordinal: i, text, contentHash: await contentHash(text) });
      }),
    );
    rows[17] = { ...rows[17]!, text: 'tampered text' };
    rows[1_100] = { ...rows[1_100]!, contentHash: '0'.repeat(64) };
    await vault.conversations.putMessages(rows);

    const runner = new JobRunner({ jobs: vault.jobs, workerId: 'w', handlers: pipelineHandlers(vault) });
    const job = await vault.jobs.enqueue({ type: VERIFY_HASHES, payload: null }, Date.now());
    expect(await runner.runOnce()).toBe('ran');
    const done = await vault.jobs.get(job.id);
    expect(done?.status).toBe('done');
    expect(done?.result).toEqual({ checked: 1_203, mismatched: ['msg-00017', 'msg-01100'] });
    expect(done?.progress).toEqual({ done: 1_203, total: 1_203, unit: 'messages' });
    vault.db.close();
  });
});
