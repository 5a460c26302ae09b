import { describe, expect, it } from 'vitest';
import { isExportable, isStagedRow } from '../../../src/lib/store/vaultfile-tables';
import { conversation, message } from '../../factories/records';

describe('staged rows stay out of vault files', () => {
  it('a staged conversation or message, and a message carrying stagedBy whatever its state, are staged', () => {
    expect(isStagedRow('conversations', conversation({ state: 'staged' }))).toBe(true);
    expect(isStagedRow('conversations', conversation())).toBe(false);
    expect(isStagedRow('messages', message({ state: 'staged', stagedBy: 'imp_x/0' }))).toBe(true);
    // A file written by hand (or an older build) cannot slip a row into the sparse index of staged messages.
    expect(isStagedRow('messages', message({ stagedBy: 'imp_x/0' }))).toBe(true);
    expect(isStagedRow('messages', message())).toBe(false);
    expect(isExportable('messages', message({ stagedBy: 'imp_x/0' }), new Set())).toBe(false);
    expect(isExportable('messages', message(), new Set())).toBe(true);
  });
});
