import { describe, expect, it } from 'vitest';
import { SYNC_FILE_NAME, type VaultFileProgress } from '../../../src/lib/core/api/vault-file';
import { INDEX_JOBS } from '../../../src/lib/core/api/index-api';
import { contentFingerprint, vaultFingerprint } from '../../../src/lib/store/vaultfile-status';
import type { Vault } from '../../../src/lib/store/vault';
import { createVaultFileService } from '../../../src/lib/services/vault-file/vault-file-service';
import { chunk, note } from '../../factories/records';
import { MIN_ARGON2ID } from '../../factories/vault-crypto';
import { sampleVault } from '../../factories/vault-state';
import { closeVault, fastTestKdf, openTestVault, putState, stampAt } from './helpers';

const CANARY = 'CANARY-q8Zr2-never-in-plaintext-7c1e';

function service(vault: Vault, now?: () => number) {
  return createVaultFileService(Promise.resolve(vault), { appVersion: '0.1.0-test', deriveKey: fastTestKdf, kdf: MIN_ARGON2ID, now });
}

async function vaultWithCanary(): Promise<Vault> {
  const vault = await openTestVault();
  await putState(vault, sampleVault());
  await putState(vault, { notes: [note({ id: 'note-canary', text: `Remember ${CANARY}.`, hlc: stampAt(90) })] });
  return vault;
}

const contains = (haystack: Uint8Array, needle: string) => Buffer.from(haystack).includes(Buffer.from(needle, 'utf8'));

/** An in-memory FileSystemDirectoryHandle: enough of the File System Access API for sync. */
function memoryFolder() {
  const files = new Map<string, File>();
  const folder = {
    async getFileHandle(name: string, options?: { create?: boolean }) {
      if (!files.has(name) && !options?.create) throw new DOMException('not found', 'NotFoundError');
      return {
        async getFile() {
          return files.get(name) ?? new File([], name);
        },
        async createWritable() {
          const parts: Uint8Array[] = [];
          return new WritableStream<Uint8Array>({
            write: (chunk) => void parts.push(chunk),
            close: () => void files.set(name, new File(parts as BlobPart[], name, { lastModified: Date.now() })),
          });
        },
      };
    },
  };
  return { folder: folder as unknown as FileSystemDirectoryHandle, files };
}

describe('the vault-file worker service', () => {
  it('returns an encrypted export whose bytes never hold the canary in plaintext (a plain one does)', async () => {
    const vault = await vaultWithCanary();
    const api = service(vault);
    const plain = await api.exportFile('op-1', { vectors: true });
    expect(contains(new Uint8Array(await plain.file.arrayBuffer()), CANARY)).toBe(true);
    const encrypted = await api.exportFile('op-2', { vectors: true, passphrase: 'a long passphrase' });
    const bytes = new Uint8Array(await encrypted.file.arrayBuffer());
    expect(encrypted).toMatchObject({
      encrypted: true,
      bytes: bytes.length,
      fileName: expect.stringMatching(/^engram-vault-\d{4}-\d{2}-\d{2}\.engram$/),
    });
    expect(contains(bytes, CANARY)).toBe(false);
    expect(contains(bytes, 'CANARY')).toBe(false);
    expect(contains(bytes, 'never-in-plaintext')).toBe(false);

    const target = await openTestVault();
    const report = await service(target).importFile('op-3', { file: encrypted.file, mode: 'restore', passphrase: 'a long passphrase' });
    expect(report.mode).toBe('restore');
    expect(await vaultFingerprint(target)).toBe(await vaultFingerprint(vault));
    await closeVault(target);
    await closeVault(vault);
  });

  it('reports progress, cancels, and runs one operation at a time', async () => {
    const vault = await vaultWithCanary();
    const api = service(vault);
    const seen: VaultFileProgress[] = [];
    const exported = await api.exportFile('op-1', { vectors: false }, (p) => seen.push(p));
    expect(seen.some((p) => p.phase === 'writing-file' && p.done === p.total && p.total === exported.records)).toBe(true);

    const cancelled = api.exportFile('op-2', { vectors: false }, (p) => {
      if (p.phase === 'writing-file') void api.cancel('op-2');
    });
    await expect(cancelled).rejects.toMatchObject({ code: 'vault/failed', detail: { cancelled: true } });

    const first = api.importFile('op-3', { file: exported.file, mode: 'merge' });
    await expect(api.importFile('op-4', { file: exported.file, mode: 'merge' })).rejects.toMatchObject({ code: 'vault/failed' });
    expect(await first).toMatchObject({ mode: 'merge', unchanged: true });
    expect(await api.cancel('op-3')).toBe(false);
    await closeVault(vault);
  });

  it('syncs through a folder: writes the vault there, merges a newer file from another device, skips one already seen', async () => {
    const { folder, files } = memoryFolder();
    const deviceA = await vaultWithCanary();
    await deviceA.db.vectors.clear(); // sync files carry no vectors (each device re-embeds)
    const deviceB = await openTestVault();
    await putState(deviceB, { notes: [note({ id: 'note-from-b', text: 'Written on B.', hlc: stampAt(95, 'b') })] });

    const firstA = await service(deviceA).syncFolder('s1', folder, { write: true });
    expect(firstA).toMatchObject({ merged: null, written: { encrypted: false } });
    expect(files.has(SYNC_FILE_NAME)).toBe(true);

    const atB = await service(deviceB).syncFolder('s2', folder, { write: true });
    expect(atB.merged?.changes.added).toBeGreaterThan(0);
    expect(atB.written).not.toBeNull();
    expect(await deviceB.notes.get('note-canary')).toBeDefined();

    const backAtA = await service(deviceA).syncFolder('s3', folder, { write: true });
    expect(backAtA.merged?.changes.added).toBe(1);
    expect(await vaultFingerprint(deviceA)).toBe(await vaultFingerprint(deviceB));

    const again = await service(deviceA).syncFolder('s4', folder, { write: false });
    expect(again).toMatchObject({ merged: null, written: null, note: expect.stringContaining('no file newer') });
    await closeVault(deviceA);
    await closeVault(deviceB);
  });

  it("merges the other device's file whenever its content differs, even when that device's clock is behind (issue 14)", async () => {
    const { folder } = memoryFolder();
    const ahead = await openTestVault();
    const behind = await openTestVault();
    const aheadNow = () => 1_900_000_000_000;
    const behindNow = () => 1_700_000_000_000;
    await putState(ahead, { notes: [note({ id: 'note-a', text: 'From the device whose clock is ahead.', hlc: stampAt(10, 'a') })] });
    expect((await service(ahead, aheadNow).syncFolder('s1', folder, { write: true })).written).not.toBeNull();
    const atBehind = await service(behind, behindNow).syncFolder('s2', folder, { write: false });
    expect(atBehind.merged?.changes.added).toBeGreaterThanOrEqual(1);
    expect(await behind.notes.get('note-a')).toBeDefined();
    await putState(behind, {
      notes: [note({ id: 'note-b', text: 'Written later on the device whose clock is behind.', hlc: stampAt(20, 'b') })],
    });
    const written = await service(behind, behindNow).syncFolder('s3', folder, { write: true });
    // Its file says it was exported long before the one the first device wrote and saw...
    expect(written.written!.exportedAt).toBeLessThan(aheadNow());
    // ...and is merged all the same: its digest differs from the last one seen there.
    const back = await service(ahead, aheadNow).syncFolder('s4', folder, { write: false });
    expect(back.merged).not.toBeNull();
    expect(await ahead.notes.get('note-b')).toBeDefined();
    expect((await service(ahead, aheadNow).syncFolder('s5', folder, { write: false })).merged).toBeNull();
    await closeVault(ahead);
    await closeVault(behind);
  });

  it('queues an index rebuild after a restore or merge; the fingerprint it shows leaves the index out', async () => {
    const source = await vaultWithCanary();
    const exported = await service(source).exportFile('op-1', { vectors: true });
    const target = await openTestVault();
    await service(target).importFile('op-2', { file: exported.file, mode: 'restore' });
    const jobs = await target.db.jobs.toArray();
    expect(jobs.filter((job) => job.type === INDEX_JOBS.rebuild)).toHaveLength(1);
    await service(target).importFile('op-3', { file: exported.file, mode: 'merge' });
    expect((await target.db.jobs.toArray()).filter((job) => job.type === INDEX_JOBS.rebuild)).toHaveLength(1);

    const before = await contentFingerprint(target);
    const full = await vaultFingerprint(target);
    await putState(target, { chunks: [chunk({ id: 'chunk-derived', hlc: stampAt(95) })] });
    expect(await contentFingerprint(target)).toBe(before);
    expect(await vaultFingerprint(target)).not.toBe(full);
    await putState(target, { notes: [note({ id: 'note-new', text: 'A new note.', hlc: stampAt(96) })] });
    expect(await contentFingerprint(target)).not.toBe(before);
    await closeVault(source);
    await closeVault(target);
  });
});
