/**
 * The importer writes one batch while it parses the next (issue 19). These check what that must
 * not change: a write that fails mid-file still leaves the vault as it was, and a conversation that
 * appears again in the next batch is still recognised as the one just written.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runImport, type ImportInput } from '../../../src/lib/store/importer';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { chatgptExport } from '../../factories/import-generator';
import { allMessages, countStoredMessages } from '../../../src/lib/store/messages-store';

const vaults: Vault[] = [];
async function fresh(): Promise<Vault> {
  const vault = await openVault(`pipelined-${Date.now()}-${Math.random()}`);
  vaults.push(vault);
  return vault;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const v of vaults.splice(0)) v.db.close();
});

function exportOf(conversations: number): { input: ImportInput; whole: Uint8Array; list: Record<string, unknown>[] } {
  const bytes = Buffer.concat([...chatgptExport({ conversations, targetBytes: conversations * 4_000, seed: 5 }).chunks]);
  const list = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>[];
  const whole = new Uint8Array(bytes);
  return { input: { name: 'export.json', size: bytes.length, bytes: whole }, whole, list };
}

describe('pipelined batch writes', () => {
  it('a write failing in the middle of a file rolls the whole file back and says why', async () => {
    const vault = await fresh();
    const { input } = exportOf(160); // batches of at most 50 conversations: four writes
    const real = vault.db.messageBlocks.bulkAdd.bind(vault.db.messageBlocks);
    let calls = 0;
    vi.spyOn(vault.db.messageBlocks, 'bulkAdd').mockImplementation(((...args: Parameters<typeof real>) => {
      if (++calls === 2) return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      return real(...args);
    }) as typeof real);
    const report = await runImport(vault, [input]);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(report.status).toBe('failed');
    expect(report.files[0]!.errors[0]!.code).toBe('store/quota-exceeded');
    expect(await vault.db.conversations.count()).toBe(0);
    expect(await countStoredMessages(vault.db)).toBe(0);
  });

  it('a copy of a conversation in the next batch is recognised as the one just written', async () => {
    const vault = await fresh();
    const { list } = exportOf(80);
    // The first conversation again at position 60 under another id (same thread, so the same
    // content hash): the second batch, prepared while the first is being written.
    const copy = { ...list[0]!, id: 'conv-copy', conversation_id: 'conv-copy' };
    const repeated = [...list.slice(0, 60), copy, ...list.slice(60)];
    const bytes = new TextEncoder().encode(JSON.stringify(repeated));
    const report = await runImport(vault, [{ name: 'repeated.json', size: bytes.length, bytes }]);
    const file = report.files[0]!;
    expect(file.errors).toEqual([]);
    expect(file.conversations).toMatchObject({ stored: 80, existing: 1 });
    expect(await vault.db.conversations.count()).toBe(80);
    expect(await vault.db.conversations.where('state').equals('visible').count()).toBe(80);
    expect(file.messages.stored).toBe(
      await (await allMessages(vault.db)).filter((m) => m.state === 'visible' && m.branch.onVisiblePath && !m.hidden).length,
    );
  });
});

describe('time left', () => {
  it('follows the written bytes: at a third of the file it is within 25% of the time the rest takes', async () => {
    const vault = await fresh();
    const { input, whole } = exportOf(400);
    // Reading costs no time on this clock; every batch written costs one second.
    let clock = 0;
    const real = vault.db.messageBlocks.bulkAdd.bind(vault.db.messageBlocks);
    vi.spyOn(vault.db.messageBlocks, 'bulkAdd').mockImplementation(((...args: Parameters<typeof real>) => {
      clock += 1000;
      return real(...args);
    }) as typeof real);
    const pieces = Array.from({ length: Math.ceil(whole.length / 16_384) }, (_, i) => whole.subarray(i * 16_384, (i + 1) * 16_384));
    const seen: { at: number; bytesRead: number; etaMs: number | null }[] = [];
    await runImport(vault, [{ name: input.name, size: whole.length, bytes: pieces }], {
      now: () => clock,
      onProgress: (p) => seen.push({ at: clock, bytesRead: p.bytesRead, etaMs: p.etaMs }),
    });
    const third = seen.find((p) => p.bytesRead >= whole.length / 3 && p.etaMs !== null)!;
    const rest = clock - third.at;
    expect(rest).toBeGreaterThan(0);
    expect(Math.abs(third.etaMs! - rest) / rest).toBeLessThan(0.25);
  });
});
