import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION } from '../../../src/lib/core/vaultfile/format';
import { looksEncrypted } from '../../../src/lib/core/vaultfile/crypto';
import { writeVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { note } from '../../factories/records';
import { counterRandom, encryptedLayout, fastTestKdf, MIN_ARGON2ID } from '../../factories/vault-crypto';
import { completed, readAll, recordsIn } from '../../factories/vault-file';
import { runs } from '../../factories/vault-runs';
import { collectBytes, sampleMeta, sampleVault } from '../../factories/vault-state';

/**
 * 1,000 single-bit flips of an encrypted file, 200 in each region: header (KDF parameters, chunk
 * size, scheme, wrapped key, JSON syntax, the newline), salt, nonces (per-file chunk nonce prefix
 * and key-wrap nonce), chunk ciphertext, chunk tags. Every flip must be rejected and the file
 * never reach `end` (the commit signal): nothing is imported. Flips in the header, salt, nonces,
 * or anywhere in chunk 0 must yield no event at all. The key derivation is a fast stand-in
 * (see vault-crypto.ts) that still depends on every header parameter.
 */
const CHUNK = 1024;
let bytes: Uint8Array;
let layout: ReturnType<typeof encryptedLayout>;
const provisional = { flips: 0, withRecords: 0, headerWithRecords: 0 };

beforeAll(async () => {
  const state = sampleVault();
  for (let i = 0; i < 12; i++) state.notes.push(note({ id: `note-pad-${i}`, text: `padding ${i} ${'苔'.repeat(40)}` }));
  bytes = await collectBytes(
    writeVaultState(sampleMeta(), state, {
      encryption: { passphrase: 'pw', kdf: MIN_ARGON2ID, chunkSize: CHUNK, deriveKey: fastTestKdf },
      random: counterRandom(3),
    }),
  );
  layout = encryptedLayout(bytes, CHUNK);
});

const positionsIn = (ranges: Array<[number, number]>) => ranges.flatMap(([s, e]) => Array.from({ length: e - s }, (_, i) => s + i));

/** What a header flip must produce: not recognisable as a vault header, a newer version, or the one error. */
function expectedHeaderCode(flipped: Uint8Array): string {
  const newline = flipped.indexOf(0x0a);
  if (newline !== layout.header[1] - 1) return 'vault/corrupt';
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(flipped.subarray(0, newline)));
  } catch {
    return 'vault/corrupt';
  }
  if (!looksEncrypted(value)) return 'vault/corrupt';
  if (typeof value.version === 'number' && value.version > CURRENT_FORMAT_VERSION) return 'vault/newer-format';
  return 'vault/wrong-passphrase';
}

async function flipAndRead(position: number, bit: number) {
  const flipped = bytes.slice();
  flipped[position]! ^= 1 << bit;
  return { flipped, outcome: await readAll(flipped, { passphrase: 'pw', deriveKey: fastTestKdf }) };
}

describe('tamper detection: 1,000 single-bit flips, 200 per region', () => {
  it('the untouched file reads to its end (control)', async () => {
    const outcome = await readAll(bytes, { passphrase: 'pw', deriveKey: fastTestKdf });
    expect(completed(outcome)).toBe(true);
    expect(layout.chunks.length).toBeGreaterThanOrEqual(5);
  });

  const headerOnly = () => {
    const excluded = new Set(positionsIn([layout.salt, layout.noncePrefix, layout.wrapNonce]));
    return positionsIn([layout.header]).filter((p) => !excluded.has(p));
  };
  const regions: Array<[string, () => number[]]> = [
    ['header (params, wrapped key, syntax)', headerOnly],
    ['salt', () => positionsIn([layout.salt])],
    ['nonces (chunk nonce prefix, key-wrap nonce)', () => positionsIn([layout.noncePrefix, layout.wrapNonce])],
    ['chunk ciphertext', () => positionsIn(layout.chunks.map((c) => c.body))],
    ['chunk tags', () => positionsIn(layout.chunks.map((c) => c.tag))],
  ];

  for (const [name, positions] of regions) {
    it(`rejects 200 flips in the ${name}`, async () => {
      const candidates = positions();
      const inHeader = name !== 'chunk ciphertext' && name !== 'chunk tags';
      const firstChunkEnd = layout.chunks[0]!.tag[1];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...candidates), fc.integer({ min: 0, max: 7 }), async (position, bit) => {
          const { flipped, outcome } = await flipAndRead(position, bit);
          expect(completed(outcome)).toBe(false);
          expect(outcome.error?.code).toBe(inHeader ? expectedHeaderCode(flipped) : 'vault/wrong-passphrase');
          if (inHeader || position < firstChunkEnd) expect(outcome.events).toEqual([]);
          provisional.flips++;
          if (recordsIn(outcome) > 0) provisional.withRecords++;
          if (inHeader && recordsIn(outcome) > 0) provisional.headerWithRecords++;
        }),
        runs(200),
      );
    });
  }

  it('counted 1,000 flips; only flips after chunk 0 let authentic records through, and only provisionally', () => {
    expect(provisional.flips).toBe(1000);
    expect(provisional.headerWithRecords).toBe(0);
    // A flip in chunk k > 0 fails after chunks 0..k-1 were opened: those records are genuine but
    // provisional (no `end` came), so a staging importer commits none of them.
    expect(provisional.withRecords).toBeGreaterThan(0);
  });
});
