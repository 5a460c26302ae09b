import type fc from 'fast-check';

/**
 * Parameters for property runs: 1,000 runs by default. On failure fast-check prints the seed and
 * path; `FC_SEED=<seed> npx vitest run ...` replays that exact run.
 */
export function runs(numRuns = 1000): fc.Parameters<unknown> {
  const seed = process.env.FC_SEED;
  return seed === undefined ? { numRuns } : { numRuns, seed: Number(seed) };
}
