import { describe, expect, it } from 'vitest';
import type { StoredSummary } from '../../../src/lib/core/api/extract-api';
import { readVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { writeSummary } from '../../../src/lib/store/summaries-repo';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { vaultCounts } from '../../../src/lib/store/vaultfile-tables';
import { closeVault, exportBytes, fileStream, openTestVault } from './helpers';

const summary = (conversationId: string, text: string): StoredSummary => ({
  conversationId,
  text,
  words: text.split(' ').length,
  method: 'extractive',
  llmId: null,
  at: 5,
});

describe('session summaries in the vault file (own table since schema 2, settings lines in the file)', () => {
  it('exports them as `extract.summary:` settings lines and restores them into the summaries table', async () => {
    const source = await openTestVault();
    await writeSummary(source.db, summary('conv-1', 'We pruned the maples.'));
    const { bytes, counts } = await exportBytes(source);
    const { state } = await readVaultState(fileStream(bytes));
    expect(state.settings).toContainEqual({ key: 'extract.summary:conv-1', value: summary('conv-1', 'We pruned the maples.') });
    expect(counts.settings).toBe((await vaultCounts(source.db)).settings);

    const target = await openTestVault();
    await writeSummary(target.db, summary('conv-gone', 'Replaced by the restore.'));
    await restoreVault(target, fileStream(bytes));
    expect(await target.db.summaries.toArray()).toEqual([summary('conv-1', 'We pruned the maples.')]);
    expect(await target.db.settings.get('extract.summary:conv-1')).toBeUndefined();
    await closeVault(source);
    await closeVault(target);
  });

  it('merges them into the summaries table, keeping the local ones the file does not hold', async () => {
    const a = await openTestVault();
    const b = await openTestVault();
    await writeSummary(a.db, summary('conv-a', 'Summary made on A.'));
    await writeSummary(b.db, summary('conv-b', 'Summary made on B.'));
    const report = await mergeVaultFile(b, fileStream((await exportBytes(a)).bytes));
    expect(report.changes.added).toBeGreaterThanOrEqual(1);
    expect((await b.db.summaries.toArray()).map((s) => s.conversationId).sort()).toEqual(['conv-a', 'conv-b']);
    const again = await mergeVaultFile(b, fileStream((await exportBytes(a)).bytes));
    expect(again.unchanged).toBe(true);
    await closeVault(a);
    await closeVault(b);
  });
});
