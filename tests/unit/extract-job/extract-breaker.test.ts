import { afterEach, describe, expect, it } from 'vitest';
import { StageBreakers } from '../../../src/lib/core/breaker/circuit-breaker';
import type { Vault } from '../../../src/lib/store/vault';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { scriptedLlm } from '../../factories/scripted-llm';
import { freshVault, GARDEN_TRANSCRIPT, importText } from './helpers';

const vaults: Vault[] = [];
afterEach(() => {
  for (const v of vaults.splice(0)) v.db.close();
});

describe('extraction and summaries behind their circuit breakers', () => {
  it('a model that fails every call opens the extraction breaker across jobs; then it is not called and the fallback says until when', async () => {
    const v = await freshVault();
    vaults.push(v);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(...(await importText(v, GARDEN_TRANSCRIPT.replace('maple', `maple ${i}`), `garden-${i}.txt`)));
    expect(ids).toHaveLength(3);
    let t = 5_000_000;
    const breakers = new StageBreakers({ now: () => t });
    const llm = scriptedLlm(() => {
      throw new Error('HTTP 500 from the model server');
    });
    const deps = { vault: v, neighbours: termNeighbours(v), llm: () => llm, breakers, now: () => t };

    // Job 1: the driver gives up after two failed windows; the summary fails once.
    const first = await extractAndStore(deps, ids[0]!);
    expect(first.result.extractors).toEqual(['rule-based']);
    expect(breakers.get('extraction').status()).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
    // Job 2 and 3 keep failing until the third failure in a row opens it.
    await extractAndStore(deps, ids[1]!);
    await extractAndStore(deps, ids[2]!);
    const extraction = breakers.get('extraction').status();
    const summaries = breakers.get('summaries').status();
    expect(extraction.state).toBe('open');
    expect(summaries.state).toBe('open');
    expect(extraction.retryAt).toBe(t + 600_000);

    // Once open, a job does not call the model at all and says why, with when it retries.
    const calls = llm.calls.length;
    const again = await extractAndStore(deps, ids[0]!);
    expect(llm.calls.length).toBe(calls);
    const reasons = again.result.fallbacks.map((f) => f.reason);
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons[0]).toMatchObject({ code: 'llm/unavailable' });
    expect(reasons[0]!.message).toMatch(/extraction model is bypassed .* retries in 10 min/u);
    expect(again.result.summary?.fallbackReason?.message).toMatch(/summary model is bypassed/u);

    // After the recovery period one probe goes through.
    t += 600_000;
    await extractAndStore(deps, ids[1]!);
    expect(llm.calls.length).toBeGreaterThan(calls);
  });
});
