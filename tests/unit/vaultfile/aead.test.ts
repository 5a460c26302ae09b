import { createCipheriv } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromHex, toHex } from '../../../src/lib/core/vaultfile/bytes';
import {
  aesGcmOpen,
  aesGcmSeal,
  chunkAad,
  chunkNonce,
  encryptChunk,
  importAesKey,
  type ChunkCipher,
} from '../../../src/lib/core/vaultfile/crypto';
import { encryptChunks } from '../../../src/lib/core/vaultfile/encrypted-stream';

// The GCM specification's Test Case 16 (McGrew & Viega; AES-256, 96-bit IV, associated data).
const TC16 = {
  key: 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308',
  iv: 'cafebabefacedbaddecaf888',
  aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
  plaintext: 'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39',
  ciphertext: '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662',
  tag: '76fc6ece0f4e1768cddf8853bb2d551b',
};

async function cipherFor(prefixHex = '0102030405060708'): Promise<ChunkCipher> {
  return {
    key: await importAesKey(fromHex(TC16.key)),
    noncePrefix: fromHex(prefixHex),
    headerDigest: new Uint8Array(32).fill(0xab),
    chunkSize: 1024,
  };
}

describe('AES-256-GCM and the chunk construction', () => {
  afterEach(() => vi.restoreAllMocks());

  it('seals and opens the published GCM Test Case 16', async () => {
    const key = await importAesKey(fromHex(TC16.key));
    const sealed = await aesGcmSeal(key, fromHex(TC16.iv), fromHex(TC16.aad), fromHex(TC16.plaintext));
    expect(toHex(sealed)).toBe(TC16.ciphertext + TC16.tag);
    expect(toHex(await aesGcmOpen(key, fromHex(TC16.iv), fromHex(TC16.aad), sealed))).toBe(TC16.plaintext);
    const tampered = sealed.slice();
    tampered[0]! ^= 1;
    await expect(aesGcmOpen(key, fromHex(TC16.iv), fromHex(TC16.aad), tampered)).rejects.toThrow();
  });

  it('a chunk is AES-256-GCM with nonce = prefix || index and AAD = header digest || index || final (checked against OpenSSL)', async () => {
    const cipher = await cipherFor();
    const plaintext = new TextEncoder().encode('chunk body 日本');
    for (const [index, final] of [
      [0, false],
      [1, false],
      [0xdecaf888, true],
    ] as const) {
      const nonce = Buffer.concat([
        Buffer.from(cipher.noncePrefix),
        Buffer.from([index >>> 24, (index >>> 16) & 255, (index >>> 8) & 255, index & 255]),
      ]);
      const aad = Buffer.concat([Buffer.from(cipher.headerDigest), nonce.subarray(8), Buffer.from([final ? 1 : 0])]);
      const openssl = createCipheriv('aes-256-gcm', fromHex(TC16.key), nonce).setAAD(aad);
      const expected = Buffer.concat([openssl.update(plaintext), openssl.final(), openssl.getAuthTag()]);
      expect(toHex(await encryptChunk(cipher, index, final, plaintext))).toBe(expected.toString('hex'));
      expect(chunkNonce(cipher.noncePrefix, index)).toEqual(new Uint8Array(nonce));
      expect(chunkAad(cipher.headerDigest, index, final)).toEqual(new Uint8Array(aad));
    }
  });

  it('never reuses a nonce: 100,000 chunk encryptions all use prefix || index, pairwise distinct', async () => {
    const cipher = await cipherFor();
    // Record the IV WebCrypto is actually given, through a plain wrapper (a vitest spy recording
    // 100k calls is several times slower); sequential calls are the fastest way through WebCrypto.
    const ivs: string[] = [];
    const subtle = crypto.subtle;
    const original = subtle.encrypt;
    subtle.encrypt = function (this: SubtleCrypto, params, key, data) {
      ivs.push(toHex(new Uint8Array((params as AesGcmParams).iv as ArrayBuffer)));
      return original.call(subtle, params, key, data);
    } as SubtleCrypto['encrypt'];
    const total = 100_000;
    try {
      for (let i = 0; i < total; i++) await encryptChunk(cipher, i, i === total - 1, new Uint8Array(0));
    } finally {
      subtle.encrypt = original;
    }
    expect(ivs).toHaveLength(total);
    const wrong = ivs.filter((iv, i) => iv !== `0102030405060708${i.toString(16).padStart(8, '0')}`);
    expect(wrong).toEqual([]);
    expect(new Set(ivs).size).toBe(total);
    // Injective by construction: distinct indices differ in the last four bytes of the nonce.
    expect(chunkNonce(cipher.noncePrefix, 0xffffffff)).not.toEqual(chunkNonce(cipher.noncePrefix, 0));
    expect(() => chunkNonce(cipher.noncePrefix, 0x1_0000_0000)).toThrow();
  });

  it('the streaming encryptor numbers its chunks 0, 1, 2, … and marks only the last one final', async () => {
    const cipher = await cipherFor();
    const spy = vi.spyOn(crypto.subtle, 'encrypt');
    async function* plain() {
      for (let i = 0; i < 10; i++) yield new Uint8Array(333).fill(i);
    }
    const sealed: Uint8Array[] = [];
    for await (const chunk of encryptChunks(plain(), cipher)) sealed.push(chunk);
    expect(sealed.map((c) => c.length)).toEqual([1040, 1040, 1040, 16 + 3330 - 3 * 1024]);
    const flags = spy.mock.calls.map(([params]) => {
      const p = params as AesGcmParams;
      return [toHex(new Uint8Array(p.iv as ArrayBuffer)).slice(16), new Uint8Array(p.additionalData as ArrayBuffer).at(-1)];
    });
    expect(flags).toEqual([
      ['00000000', 0],
      ['00000001', 0],
      ['00000002', 0],
      ['00000003', 1],
    ]);
  });
});
