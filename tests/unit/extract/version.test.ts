import { describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSION, extractorVersionOf } from '../../../src/lib/core/extract/version';

describe('extractor version', () => {
  it('reads a candidate written before versions existed as version 1', () => {
    expect(EXTRACTOR_VERSION).toBeGreaterThan(1);
    expect(extractorVersionOf(undefined)).toBe(1);
    expect(extractorVersionOf({})).toBe(1);
    expect(extractorVersionOf({ extractorVersion: EXTRACTOR_VERSION })).toBe(EXTRACTOR_VERSION);
  });
});
