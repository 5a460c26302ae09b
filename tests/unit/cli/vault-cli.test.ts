import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { withVaultFile } from '../../../src/cli/commands/vault-file';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { mergeVaults } from '../../../src/lib/core/vaultfile/merge';
import { readVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { restoreVault } from '../../../src/lib/store/vaultfile-restore';
import { vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import { note } from '../../factories/records';
import { sampleVault } from '../../factories/vault-state';
import { closeVault, exportBytes, fileStream, openTestVault, putState, seedRichVault, stampAt } from '../vaultfile-store/helpers';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--json'], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, json: JSON.parse(out.join('\n') || '{}') as Record<string, unknown> & { error?: { code: string } }, err: err.join('\n') };
}

/** A vault file written by the store code path (the browser's worker runs the same code). */
async function storeFile(name: string, seed: (vault: Awaited<ReturnType<typeof openTestVault>>) => Promise<void>) {
  const vault = await openTestVault();
  await seed(vault);
  const { bytes } = await exportBytes(vault);
  const fingerprint = await vaultFingerprint(vault);
  await closeVault(vault);
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, bytes, fingerprint };
}

describe('engram export / merge', () => {
  it('a file from the store path re-exported by the CLI (encrypted) restores in the store path with the same digest', async () => {
    const source = await storeFile('store.engram', (v) => seedRichVault(v, sampleVault()));
    const out = join(dir, 'cli-encrypted.engram');
    process.env.ENGRAM_TEST_PASSPHRASE = 'a passphrase for the test';
    const run = await cli('export', out, '--vault', source.path, '--passphrase-env', 'ENGRAM_TEST_PASSPHRASE');
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ out, encrypted: true, vectors: true, digest: source.fingerprint, counts: { messages: 4 } });
    const bytes = new Uint8Array(await readFile(out));
    expect(Buffer.from(bytes).includes(Buffer.from('Japanese'))).toBe(false);

    const target = await openTestVault();
    await restoreVault(target, fileStream(bytes), { passphrase: 'a passphrase for the test' });
    expect(await vaultFingerprint(target)).toBe(source.fingerprint);
    await closeVault(target);

    const plain = join(dir, 'cli-plain.engram');
    const back = await cli('export', plain, '--vault', out, '--vault-passphrase-env', 'ENGRAM_TEST_PASSPHRASE', '--no-vectors');
    expect(back.json).toMatchObject({ encrypted: false, vectors: false, counts: { vectors: 0 } });
    expect((await readVaultState(fileStream(new Uint8Array(await readFile(plain))))).state.vectors).toEqual([]);
  });

  it('merges in either order to the digest of the core merge, which the store path reproduces', async () => {
    const a = await storeFile('a.engram', (v) =>
      putState(v, { ...sampleVault(), notes: [note({ id: 'n', text: 'A', hlc: stampAt(1, 'a') })] }),
    );
    const b = await storeFile('b.engram', (v) =>
      putState(v, { notes: [note({ id: 'n', text: 'B', hlc: stampAt(2, 'b') }), note({ id: 'm', hlc: stampAt(3, 'b') })] }),
    );
    const ab = await cli('merge', a.path, b.path, '--out', join(dir, 'ab.engram'));
    const ba = await cli('merge', b.path, a.path, '--out', join(dir, 'ba.engram'));
    expect(ab.code).toBe(0);
    const expected = await vaultDigest(
      await mergeVaults((await readVaultState(fileStream(a.bytes))).state, (await readVaultState(fileStream(b.bytes))).state),
    );
    expect((ab.json.written as { digest: string }).digest).toBe(expected);
    expect((ba.json.written as { digest: string }).digest).toBe(expected);
    // b adds note m, replaces note n (A's version goes to the history); the vault-id settings of two
    // vaults merge too (the later-sorting id wins on both sides), hence "updated" of at least 1.
    expect(ab.json.inputs).toMatchObject([
      { path: a.path, changes: null },
      { path: b.path, changes: { added: 1, history: 1 } },
    ]);
    expect((ab.json.inputs as Array<{ changes: { updated: number } | null }>)[1]!.changes!.updated).toBeGreaterThanOrEqual(1);

    const store = await openTestVault();
    await restoreVault(store, fileStream(a.bytes));
    await mergeVaultFile(store, fileStream(b.bytes));
    expect(await vaultFingerprint(store)).toBe(expected);
    await closeVault(store);

    // Into a vault file: merging the same file again adds nothing.
    const target = join(dir, 'target.engram');
    await writeFile(target, a.bytes);
    const first = await cli('merge', b.path, '--vault', target);
    const second = await cli('merge', b.path, '--vault', target);
    expect((first.json.written as { digest: string }).digest).toBe(expected);
    expect(second.json.inputs).toMatchObject([{ changes: { added: 0, updated: 0, deleted: 0, tombstones: 0, history: 0 } }]);
  });

  it('withVaultFile writes back atomically, and not at all when the work fails', async () => {
    const a = await storeFile('atomic.engram', (v) => putState(v, sampleVault()));
    await withVaultFile(a.path, null, async (vault) => {
      await vault.notes.save(note({ id: 'added-by-cli' }), { actor: 'user', action: 'create', why: 'test', at: 1 });
    });
    expect((await readVaultState(fileStream(new Uint8Array(await readFile(a.path))))).state.notes.map((n) => n.id)).toContain(
      'added-by-cli',
    );
    const before = await readFile(a.path);
    await expect(
      withVaultFile(a.path, null, async (vault) => {
        await vault.deleteRecords('notes', ['added-by-cli']);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(Buffer.compare(await readFile(a.path), before)).toBe(0);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // A new file: the vault starts empty and the file is created.
    const fresh = join(dir, 'fresh.engram');
    await withVaultFile(fresh, 'fresh passphrase', async (vault) => {
      await vault.notes.save(note({ id: 'first' }), { actor: 'user', action: 'create', why: 'test', at: 1 });
    });
    expect((await readVaultState(fileStream(new Uint8Array(await readFile(fresh))), { passphrase: 'fresh passphrase' })).encrypted).toBe(
      true,
    );
  });

  it('refuses a weak passphrase for a file it writes, saying why (issue 14)', async () => {
    const a = await storeFile('weak.engram', (v) => putState(v, sampleVault()));
    for (const weak of ['password', 'P@ssw0rd2024']) {
      process.env.ENGRAM_WEAK = weak;
      const refused = await cli('export', join(dir, 'weak-out.engram'), '--vault', a.path, '--passphrase-env', 'ENGRAM_WEAK');
      expect(refused.code).toBe(2);
      expect((refused.json.error as { message?: string } | undefined)?.message).toMatch(/That passphrase is refused\. Too easy to guess/u);
      expect((await readdir(dir)).includes('weak-out.engram')).toBe(false);
    }
  });

  it('passphrases never come from the command line: a missing variable is a usage error; a wrong one imports nothing', async () => {
    const a = await storeFile('pp.engram', (v) => putState(v, sampleVault()));
    expect((await cli('export', join(dir, 'x.engram'), '--vault', a.path, '--passphrase-env', 'ENGRAM_UNSET_VARIABLE')).code).toBe(2);
    process.env.ENGRAM_TEST_PASSPHRASE = 'maple moss lantern bridge';
    await cli('export', join(dir, 'enc.engram'), '--vault', a.path, '--passphrase-env', 'ENGRAM_TEST_PASSPHRASE');
    process.env.ENGRAM_WRONG = 'wrong';
    const wrong = await cli('export', join(dir, 'y.engram'), '--vault', join(dir, 'enc.engram'), '--vault-passphrase-env', 'ENGRAM_WRONG');
    expect(wrong.code).toBe(1);
    expect(wrong.json.error?.code).toBe('vault/wrong-passphrase');
    expect((await readdir(dir)).includes('y.engram')).toBe(false);
    const usage = await cli('merge', a.path, '--out', join(dir, 'z.engram'));
    expect(usage.code).toBe(2);
  });
});
