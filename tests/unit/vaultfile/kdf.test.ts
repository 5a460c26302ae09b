import { describe, expect, it } from 'vitest';
import { fromHex, toBase64, toHex } from '../../../src/lib/core/vaultfile/bytes';
import {
  argon2idRaw,
  ARGON2ID_DEFAULT,
  checkKdfParams,
  deriveKeyBytes,
  newKdfParams,
  passphraseBytes,
  pbkdf2Sha256Raw,
  PBKDF2_DEFAULT,
} from '../../../src/lib/core/vaultfile/kdf';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('key derivation', () => {
  // Argon2id (v=0x13) vectors of the reference implementation's test suite
  // (phc-winner-argon2, src/test.c). RFC 9106 §5.3's own vector needs a secret *and* associated
  // data, which hash-wasm does not take and this KDF does not use.
  it.each([
    { t: 2, mKiB: 65_536, p: 1, tag: '09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7' },
    { t: 2, mKiB: 256, p: 1, tag: '9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe' },
    { t: 2, mKiB: 256, p: 2, tag: '6d093c501fd5999645e0ea3bf620d7b8be7fd2db59c20d9fff9539da2bf57037' },
  ])('Argon2id known answer: t=$t m=$mKiB KiB p=$p, "password" / "somesalt"', async ({ t, mKiB, p, tag }) => {
    const out = await argon2idRaw(ascii('password'), ascii('somesalt'), { memoryKiB: mKiB, iterations: t, parallelism: p }, 32);
    expect(toHex(out)).toBe(tag);
  });

  // PBKDF2-HMAC-SHA256 vectors of RFC 7914 §11.
  it.each([
    {
      p: 'passwd',
      s: 'salt',
      c: 1,
      dk: '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
    },
    {
      p: 'Password',
      s: 'NaCl',
      c: 80_000,
      dk: '4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d',
    },
  ])('PBKDF2-SHA256 known answer (RFC 7914): P=$p S=$s c=$c', async ({ p, s, c, dk }) => {
    expect(toHex(await pbkdf2Sha256Raw(ascii(p), ascii(s), c, 64))).toBe(dk);
  });

  it('derives 32-byte keys through the policy-checked function, equal to the raw primitives', async () => {
    const salt = fromHex('000102030405060708090a0b0c0d0e0f');
    const argon = { name: 'argon2id' as const, memoryKiB: 19_456, iterations: 2, parallelism: 1, salt: toBase64(salt) };
    expect(await deriveKeyBytes(ascii('pw'), argon)).toEqual(await argon2idRaw(ascii('pw'), salt, argon, 32));
    const pbkdf2 = { name: 'pbkdf2-sha256' as const, iterations: 600_000, salt: toBase64(salt) };
    expect(await deriveKeyBytes(ascii('pw'), pbkdf2)).toEqual(await pbkdf2Sha256Raw(ascii('pw'), salt, 600_000, 32));
  });

  it('refuses parameters below OWASP minimums or above the ceilings, and malformed salts', async () => {
    const salt = toBase64(new Uint8Array(16));
    const bad = [
      { name: 'argon2id', memoryKiB: 19_455, iterations: 2, parallelism: 1, salt },
      { name: 'argon2id', memoryKiB: 19_456, iterations: 1, parallelism: 1, salt },
      { name: 'argon2id', memoryKiB: 19_456, iterations: 2, parallelism: 0, salt },
      { name: 'argon2id', memoryKiB: 4_194_304, iterations: 2, parallelism: 1, salt },
      { name: 'argon2id', memoryKiB: 19_456, iterations: 2, parallelism: 1, salt, extra: 1 },
      { name: 'pbkdf2-sha256', iterations: 599_999, salt },
      { name: 'pbkdf2-sha256', iterations: 600_000, salt: toBase64(new Uint8Array(15)) },
      { name: 'pbkdf2-sha256', iterations: 600_000, salt: 'AAAAAAAAAAAAAAAAAAAAAB==' },
      { name: 'scrypt', iterations: 600_000, salt },
    ];
    for (const params of bad) expect(checkKdfParams(params).ok, JSON.stringify(params)).toBe(false);
    await expect(deriveKeyBytes(ascii('pw'), bad[0] as never)).rejects.toThrow(/rejected/);
    expect(checkKdfParams({ ...ARGON2ID_DEFAULT, salt }).ok).toBe(true);
    expect(checkKdfParams({ ...PBKDF2_DEFAULT, salt }).ok).toBe(true);
    expect(ARGON2ID_DEFAULT).toMatchObject({ memoryKiB: 65_536, iterations: 3, parallelism: 1 });
  });

  it('caps what an unauthenticated header may ask for at 4x the default cost (issue 14)', () => {
    const salt = toBase64(new Uint8Array(16));
    const argon = (memoryKiB: number, iterations: number, parallelism = 1) =>
      checkKdfParams({ name: 'argon2id', memoryKiB, iterations, parallelism, salt });
    // The crafted header of the review: 1 GiB x 64 passes.
    expect(argon(1_048_576, 64)).toMatchObject({ ok: false });
    // Exactly 4x the default (64 MiB x 3) is allowed, in memory or in passes; a step more is not.
    expect(argon(4 * 65_536, 3).ok).toBe(true);
    expect(argon(65_536, 12).ok).toBe(true);
    expect(argon(4 * 65_536, 4)).toMatchObject({ ok: false, reason: expect.stringMatching(/4x the default/u) });
    expect(argon(4 * 65_536 + 1, 2).ok).toBe(false);
    expect(argon(65_536, 3, 5).ok).toBe(false);
    expect(checkKdfParams({ name: 'pbkdf2-sha256', iterations: 4 * 600_000, salt }).ok).toBe(true);
    expect(checkKdfParams({ name: 'pbkdf2-sha256', iterations: 4 * 600_000 + 1, salt }).ok).toBe(false);
  });

  it('draws a fresh 16-byte salt per export from the injected randomness', () => {
    const params = newKdfParams(ARGON2ID_DEFAULT, (n) => new Uint8Array(n).fill(7));
    expect(params).toEqual({ ...ARGON2ID_DEFAULT, salt: toBase64(new Uint8Array(16).fill(7)) });
  });

  it('normalises passphrases to NFC and refuses empty ones and lone surrogates', () => {
    expect(passphraseBytes('caf\u0065\u0301')).toEqual(passphraseBytes('caf\u00e9'));
    expect(passphraseBytes('')).toBeNull();
    expect(passphraseBytes('a\ud800b')).toBeNull();
    expect(passphraseBytes('🔑 パスワード')).toEqual(ascii('🔑 パスワード'));
  });
});
