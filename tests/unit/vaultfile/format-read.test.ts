import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVaultState, writeVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { REQUIRED_SECTIONS } from '../../../src/lib/core/vaultfile/sections';
import { buildPlainFile, completed, readAll } from '../../factories/vault-file';
import { runs } from '../../factories/vault-runs';
import { collectBytes, sampleMeta, sampleVault, streamOf } from '../../factories/vault-state';
import { message, note } from '../../factories/records';

const v1Manifest = (counts: Record<string, number>, over: Record<string, unknown> = {}) => ({
  format: 'engram-vault',
  version: 1,
  vaultId: 'v',
  createdAt: 1,
  exportedAt: 2,
  appVersion: 'x',
  embeddingModelId: null,
  vectorsIncluded: false,
  sections: [...REQUIRED_SECTIONS],
  counts: Object.fromEntries(REQUIRED_SECTIONS.map((name) => [name, counts[name] ?? 0])),
  ...over,
});
const emptySections = (over: Record<string, string[]> = {}) =>
  Object.fromEntries(REQUIRED_SECTIONS.map((name) => [name, over[name] ?? []]));

async function sampleBytes(): Promise<Uint8Array> {
  return collectBytes(writeVaultState(sampleMeta(), sampleVault()));
}

describe('vault file: reading damaged, foreign, newer and older files', () => {
  it('reads a hand-built file (checksums computed independently) exactly as the writer would produce it', async () => {
    const n = note({ text: 'hand built 手作り' });
    const file = buildPlainFile(v1Manifest({ notes: 1 }), emptySections({ notes: [JSON.stringify(n)] }));
    const { state } = await readVaultState(streamOf(file));
    expect(state.notes).toEqual([n]);
  });

  it('refuses a file truncated anywhere (every line boundary ±1, every 5th byte): `vault/corrupt`, never `end`', async () => {
    const bytes = await sampleBytes();
    const cuts = new Set<number>();
    bytes.forEach((byte, i) => {
      if (byte === 0x0a) [i - 1, i, i + 1].forEach((cut) => cuts.add(cut));
      if (i % 5 === 0) cuts.add(i);
    });
    cuts.delete(bytes.length);
    const outcomes = new Set<string>();
    for (const cut of [...cuts].filter((c) => c >= 0).sort((a, b) => a - b)) {
      const outcome = await readAll(bytes.subarray(0, cut));
      expect(outcome.error?.code, `cut at ${cut}`).toBe('vault/corrupt');
      expect(completed(outcome)).toBe(false);
      outcomes.add(outcome.error!.message.split(':')[0]!);
    }
    expect([...outcomes].some((m) => m.includes('truncated'))).toBe(true);
  });

  it('names the section and position of a truncation', async () => {
    const bytes = await sampleBytes();
    const text = new TextDecoder().decode(bytes);
    const cut = new TextEncoder().encode(text.slice(0, text.indexOf('"id":"msg-3"'))).length;
    const outcome = await readAll(bytes.subarray(0, cut));
    expect(outcome.error).toMatchObject({
      code: 'vault/corrupt',
      message: 'The file is truncated: it ends after 2 of 4 records of section `messages`, in the middle of a line.',
    });
  });

  it('refuses any single-bit flip of a plain file (seeded, 1,000 flips)', async () => {
    const bytes = await sampleBytes();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 0, max: 7 }), async (position, bit) => {
        const flipped = bytes.slice();
        flipped[position]! ^= 1 << bit;
        const outcome = await readAll(flipped);
        expect(completed(outcome)).toBe(false);
        // A flip of the version digit can read as a newer format; everything else is damage.
        expect(['vault/corrupt', 'vault/newer-format']).toContain(outcome.error?.code);
      }),
      runs(),
    );
  });

  it('names the damaged section when a record was changed', async () => {
    const bytes = await sampleBytes();
    const text = new TextDecoder().decode(bytes).replace('"role":"assistant"', '"role":"assistent"');
    const outcome = await readAll(new TextEncoder().encode(text));
    expect(outcome.error).toMatchObject({
      code: 'vault/corrupt',
      message: 'Section `messages` is damaged: its checksum does not match its records.',
    });
  });

  it('detects a changed manifest through the whole-file checksum', async () => {
    const bytes = await sampleBytes();
    const text = new TextDecoder().decode(bytes).replace('"appVersion":"0.1.0-test"', '"appVersion":"9.9.9-test"');
    const outcome = await readAll(new TextEncoder().encode(text));
    expect(outcome.error?.message).toContain('its checksum does not match');
    expect(completed(outcome)).toBe(false);
  });

  it('refuses data after the trailer, a missing trailer, and files that are not vault files', async () => {
    const bytes = await sampleBytes();
    const cases: Array<[Uint8Array, string]> = [
      [new Uint8Array([...bytes, ...new TextEncoder().encode('{"more":1}\n')]), 'data after its closing line'],
      [new Uint8Array([...bytes, 0x20]), 'data after its closing line'],
      [buildPlainFile(v1Manifest({}), emptySections(), { trailer: false }), 'truncated'],
      [new Uint8Array(), 'The file is empty.'],
      [new TextEncoder().encode('[1,2,3]\n'), 'not an Engram vault file'],
      [new TextEncoder().encode('{"format":"something-else","version":1}\n'), 'not an Engram vault file'],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x0a]), 'not an Engram vault file'],
    ];
    for (const [file, message] of cases) {
      const outcome = await readAll(file);
      expect(outcome.error?.code).toBe('vault/corrupt');
      expect(outcome.error?.message).toContain(message);
    }
  });

  it('refuses invalid records and invalid UTF-8 even when the checksums agree, naming record and field', async () => {
    const badHlc = JSON.stringify({ ...message(), hlc: 'yesterday' });
    let outcome = await readAll(buildPlainFile(v1Manifest({ messages: 1 }), emptySections({ messages: [badHlc] })));
    expect(outcome.error).toMatchObject({
      code: 'vault/corrupt',
      message: 'Record 1 of section `messages` (line 5) is not valid: `hlc` is not a valid hybrid-logical-clock stamp.',
    });
    const invalidUtf8 = new Uint8Array([...new TextEncoder().encode(JSON.stringify(note()).slice(0, -2)), 0xc3, 0x28, 0x22, 0x7d, 0x0a]);
    const sections = { ...emptySections(), notes: [invalidUtf8] };
    outcome = await readAll(buildPlainFile(v1Manifest({ notes: 1 }), sections));
    expect(outcome.error).toMatchObject({ code: 'vault/corrupt', message: 'Line 7 is not valid UTF-8.' });
  });

  it('refuses a newer format with a clear message (plain and encrypted headers)', async () => {
    const newer = buildPlainFile(v1Manifest({}, { version: 2 }), emptySections());
    let outcome = await readAll(newer);
    expect(outcome.error).toMatchObject({
      code: 'vault/newer-format',
      message:
        'This vault file was written by a newer version of Engram Vault (file format 2; this app reads formats up to 1). Update the app to open it.',
      detail: { fileVersion: 2, supportedVersion: 1 },
    });
    expect(outcome.events).toEqual([]);
    outcome = await readAll(
      new TextEncoder().encode('{"format":"engram-vault","version":7,"encryption":{"scheme":"future"}}\n\u0001\u0002'),
    );
    expect(outcome.error).toMatchObject({ code: 'vault/newer-format', detail: { fileVersion: 7 } });
  });

  it('refuses a format version that never shipped (format 1 is the first), naming it', async () => {
    for (const version of [0, -1]) {
      const outcome = await readAll(buildPlainFile(v1Manifest({}, { version }), emptySections()));
      expect(outcome.error).toMatchObject({
        code: 'vault/corrupt',
        message: `Vault file format ${version} is not one this app knows.`,
        detail: { line: 1 },
      });
      expect(outcome.events).toEqual([]);
    }
  });
});
