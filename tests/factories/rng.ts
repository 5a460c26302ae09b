/** The product's seeded generator, for tests that need the same numbers on every run and machine. */
export { seededRng } from '../../src/lib/core/seeded-rng';
