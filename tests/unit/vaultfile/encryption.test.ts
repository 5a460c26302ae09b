import { describe, expect, it, vi } from 'vitest';
import { concatBytes } from '../../../src/lib/core/vaultfile/bytes';
import { createEncryption } from '../../../src/lib/core/vaultfile/crypto';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { decryptChunks, encryptChunks } from '../../../src/lib/core/vaultfile/encrypted-stream';
import { readVaultState, writeVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { note } from '../../factories/records';
import { counterRandom, encryptedLayout, fastTestKdf, MIN_ARGON2ID } from '../../factories/vault-crypto';
import { completed, readAll, recordsIn } from '../../factories/vault-file';
import { collectBytes, sampleMeta, sampleVault, streamOf } from '../../factories/vault-state';

const CHUNK = 1024;
const PASS = 'correct horse battery staple 🐴';

/** A sample vault padded with notes so the encrypted body spans several 1 KiB chunks. */
function bigSample() {
  const state = sampleVault();
  for (let i = 0; i < 12; i++) state.notes.push(note({ id: `note-pad-${i}`, text: `padding note ${i} ${'庭'.repeat(40)}` }));
  return state;
}

async function encryptedFile(state = bigSample(), seed = 1): Promise<Uint8Array> {
  return collectBytes(
    writeVaultState(sampleMeta(), state, {
      encryption: { passphrase: PASS, kdf: MIN_ARGON2ID, chunkSize: CHUNK, deriveKey: fastTestKdf },
      random: counterRandom(seed),
    }),
  );
}

const readEncrypted = (bytes: Uint8Array, passphrase = PASS) => readAll(bytes, { passphrase, deriveKey: fastTestKdf });

describe('encrypted vault files', () => {
  it('round-trips with real Argon2id (OWASP minimum) and with real PBKDF2-SHA256 (600,000 iterations)', async () => {
    const state = sampleVault();
    for (const kdf of [MIN_ARGON2ID, { name: 'pbkdf2-sha256', iterations: 600_000 } as const]) {
      const bytes = await collectBytes(writeVaultState(sampleMeta(), state, { encryption: { passphrase: PASS, kdf } }));
      const back = await readVaultState(streamOf(bytes, [7, 1000]), { passphrase: PASS });
      expect(back.encrypted).toBe(true);
      expect(back.manifest.vaultId).toBe('vault-test');
      expect(await vaultDigest(back.state)).toBe(await vaultDigest(state));
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0x0a))));
      expect(Object.keys(header)).toEqual(['format', 'version', 'encryption']);
      expect(header.encryption).toMatchObject({
        scheme: 'aes-256-gcm-chunked',
        kdf: { ...kdf, salt: expect.any(String) },
        chunkSize: 65_536,
      });
    }
  });

  it('a wrong passphrase (real Argon2id) fails with the one clear error and yields nothing at all', async () => {
    const bytes = await collectBytes(writeVaultState(sampleMeta(), sampleVault(), { encryption: { passphrase: PASS, kdf: MIN_ARGON2ID } }));
    const outcome = await readAll(bytes, { passphrase: 'correct horse battery stapler 🐴' });
    expect(outcome.error).toMatchObject({ code: 'vault/wrong-passphrase', message: 'Wrong passphrase, or the file was changed.' });
    expect(outcome.events).toEqual([]);
  });

  it('refuses to write with an empty passphrase, a KDF below policy or an out-of-range chunk size', () => {
    const write = (encryption: Parameters<typeof writeVaultState>[2]) => () => writeVaultState(sampleMeta(), sampleVault(), encryption);
    expect(write({ encryption: { passphrase: '' } })).toThrow(expect.objectContaining({ code: 'input/invalid' }));
    expect(write({ encryption: { passphrase: PASS, kdf: { name: 'pbkdf2-sha256', iterations: 100_000 } } })).toThrow(
      expect.objectContaining({ code: 'input/invalid' }),
    );
    expect(write({ encryption: { passphrase: PASS, kdf: { ...MIN_ARGON2ID, memoryKiB: 4096 } } })).toThrow(
      expect.objectContaining({ code: 'input/invalid' }),
    );
    expect(write({ encryption: { passphrase: PASS, chunkSize: 100 } })).toThrow(expect.objectContaining({ code: 'input/invalid' }));
  });

  it('asks for a passphrase instead of failing obscurely, and runs the KDF through the injected function (e.g. a worker)', async () => {
    const bytes = await encryptedFile();
    const missing = await readAll(bytes);
    expect(missing.error).toMatchObject({ code: 'vault/passphrase-required' });
    expect(missing.events).toEqual([]);
    const derive = vi.fn(fastTestKdf);
    const outcome = await readAll(bytes, { passphrase: PASS, deriveKey: derive });
    expect(completed(outcome)).toBe(true);
    expect(derive).toHaveBeenCalledTimes(1);
    expect(derive.mock.calls[0]![1]).toMatchObject(MIN_ARGON2ID);
  });

  it('never lets a canary string appear in the encrypted file, in any encoding, while the plain file has it', async () => {
    const canary = 'CANARY-7f3a9c-庭園-🐤';
    const state = sampleVault();
    state.notes.push(note({ id: 'note-canary', text: `secret ${canary} secret` }));
    state.conversations[0]!.title = canary;
    state.settings.push({ key: canary, value: canary });
    const meta = sampleMeta({ vaultId: canary, appVersion: canary });
    const plain = await collectBytes(writeVaultState(meta, state));
    const encrypted = await collectBytes(
      writeVaultState(meta, state, { encryption: { passphrase: PASS, kdf: MIN_ARGON2ID, deriveKey: fastTestKdf } }),
    );
    const forms = [
      Buffer.from(canary, 'utf8'),
      Buffer.from(canary, 'utf16le'),
      Buffer.from(JSON.stringify(canary).slice(1, -1), 'utf8'),
      Buffer.from('CANARY-7f3a9c'),
    ];
    for (const form of forms) expect(Buffer.from(encrypted).includes(form)).toBe(false);
    expect(Buffer.from(plain).includes(forms[0]!)).toBe(true);
  });

  it('two exports of the same vault share no salt, nonce prefix, wrapped key or ciphertext', async () => {
    const a = await collectBytes(
      writeVaultState(sampleMeta(), sampleVault(), { encryption: { passphrase: PASS, kdf: MIN_ARGON2ID, deriveKey: fastTestKdf } }),
    );
    const b = await collectBytes(
      writeVaultState(sampleMeta(), sampleVault(), { encryption: { passphrase: PASS, kdf: MIN_ARGON2ID, deriveKey: fastTestKdf } }),
    );
    const [la, lb] = [encryptedLayout(a, 65_536), encryptedLayout(b, 65_536)];
    const slice = (bytes: Uint8Array, [s, e]: [number, number]) => Buffer.from(bytes.subarray(s, e)).toString('latin1');
    for (const field of ['salt', 'noncePrefix', 'wrapNonce', 'wrappedKey'] as const)
      expect(slice(a, la[field])).not.toBe(slice(b, lb[field]));
    expect(slice(a, la.chunks[0]!.body)).not.toBe(slice(b, lb.chunks[0]!.body));
  });

  describe('chunk stream integrity (reordered, dropped, duplicated, truncated, extended)', () => {
    it('the file spans several chunks and reads back whole', async () => {
      const bytes = await encryptedFile();
      expect(encryptedLayout(bytes, CHUNK).chunks.length).toBeGreaterThanOrEqual(5);
      const outcome = await readEncrypted(bytes);
      expect(outcome.error).toBeNull();
      expect(completed(outcome)).toBe(true);
    });

    it('rejects every manipulation with the one error, and never reaches `end`', async () => {
      const bytes = await encryptedFile();
      const layout = encryptedLayout(bytes, CHUNK);
      const header = bytes.subarray(0, layout.header[1]);
      const chunks = layout.chunks.map(({ body, tag }) => bytes.subarray(body[0], tag[1]));
      const file = (parts: Uint8Array[]) => concatBytes([header, ...parts]);
      const n = chunks.length;
      const variants: Record<string, Uint8Array> = {
        'no chunks': file([]),
        'swap 0 and 1': file([chunks[1]!, chunks[0]!, ...chunks.slice(2)]),
        'swap 2 and 3': file([...chunks.slice(0, 2), chunks[3]!, chunks[2]!, ...chunks.slice(4)]),
        'last moved first': file([chunks[n - 1]!, ...chunks.slice(0, n - 1)]),
        'duplicate chunk 1': file([chunks[0]!, chunks[1]!, ...chunks.slice(1)]),
        'last chunk repeated': file([...chunks, chunks[n - 1]!]),
        'extra byte at the end': concatBytes([bytes, new Uint8Array([0])]),
        'extra 16 bytes at the end': concatBytes([bytes, new Uint8Array(16)]),
        'tag of the last chunk cut': bytes.subarray(0, bytes.length - 1),
      };
      for (let k = 0; k < n; k++) variants[`chunk ${k} dropped`] = file(chunks.filter((_, i) => i !== k));
      for (let k = 1; k < n; k++) variants[`truncated after chunk ${k - 1}`] = file(chunks.slice(0, k));
      for (const cut of [1, 15, 16, 17, 500, CHUNK + 15])
        variants[`truncated mid-chunk (${cut})`] = file([...chunks.slice(0, 2), chunks[2]!.subarray(0, cut)]);
      for (const [name, variant] of Object.entries(variants)) {
        const outcome = await readEncrypted(variant);
        expect(outcome.error?.code, name).toBe('vault/wrong-passphrase');
        expect(completed(outcome), name).toBe(false);
      }
    });

    it('rejects a header spliced onto another export’s body (same passphrase)', async () => {
      const a = await encryptedFile(bigSample(), 1);
      const b = await encryptedFile(bigSample(), 2);
      const spliced = concatBytes([a.subarray(0, a.indexOf(0x0a) + 1), b.subarray(b.indexOf(0x0a) + 1)]);
      const outcome = await readEncrypted(spliced);
      expect(outcome.error?.code).toBe('vault/wrong-passphrase');
      expect(recordsIn(outcome)).toBe(0);
    });

    it('chunks the plaintext exactly at multiples of the chunk size (0, 1, n-1, n, n+1, 2n bytes)', async () => {
      const { cipher } = await createEncryption({
        passphrase: new Uint8Array([1]),
        kdf: { ...MIN_ARGON2ID, salt: 'AAAAAAAAAAAAAAAAAAAAAA==' },
        chunkSize: CHUNK,
        random: counterRandom(),
        deriveKey: fastTestKdf,
      });
      for (const length of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK]) {
        const plain = Uint8Array.from({ length }, (_, i) => i & 255);
        const sealed: Uint8Array[] = [];
        for await (const c of encryptChunks(streamOf(plain, [100]) as unknown as AsyncIterable<Uint8Array>, cipher)) sealed.push(c);
        expect(sealed.length).toBe(Math.max(1, Math.ceil(length / CHUNK)));
        const opened: Uint8Array[] = [];
        for await (const c of decryptChunks(streamOf(concatBytes(sealed), [33]) as unknown as AsyncIterable<Uint8Array>, cipher))
          opened.push(c);
        expect(concatBytes(opened)).toEqual(plain);
      }
    });
  });
});
