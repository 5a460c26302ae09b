import { describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../../src/lib/core/records';
import { vaultDigest } from '../../../src/lib/core/vaultfile/digest';
import { readVaultState, sectionsOf, writeVaultState } from '../../../src/lib/core/vaultfile/state-io';
import { writeVault } from '../../../src/lib/core/vaultfile/writer';
import { emptyVaultState, SECTION_NAMES } from '../../../src/lib/core/vaultfile/sections';
import { note } from '../../factories/records';
import { completed, readAll } from '../../factories/vault-file';
import { collectBytes, HARD_TEXT, sampleMeta, sampleVault, streamOf } from '../../factories/vault-state';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('vault file: writing and the round trip', () => {
  it('writes the documented layout: manifest, framed sections with counts and checksums, trailer', async () => {
    const bytes = await collectBytes(writeVaultState(sampleMeta(), sampleVault()));
    const lines = decode(bytes).split('\n');
    expect(lines.pop()).toBe('');
    const manifest = JSON.parse(lines[0]!);
    expect(manifest).toEqual({
      format: 'engram-vault',
      version: 1,
      vaultId: 'vault-test',
      createdAt: 1_700_000_000_000,
      exportedAt: 1_700_000_500_000,
      appVersion: '0.1.0-test',
      embeddingModelId: 'lexical-v1',
      vectorsIncluded: true,
      sections: [...SECTION_NAMES],
      counts: { conversations: 1, messages: 4, notes: 1, chunks: 1, history: 1, imports: 1, settings: 2, tombstones: 1, vectors: 1 },
    });
    let at = 1;
    for (const name of SECTION_NAMES) {
      expect(JSON.parse(lines[at]!)).toEqual({ section: name });
      at += 1 + manifest.counts[name];
      const end = JSON.parse(lines[at]!);
      expect(end).toMatchObject({ end: name, count: manifest.counts[name] });
      expect(end.sha256).toMatch(/^[0-9a-f]{64}$/);
      at++;
    }
    expect(JSON.parse(lines[at]!)).toEqual({ trailer: 'engram-vault', fileSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(lines.length).toBe(at + 1);
    expect(JSON.parse(lines.find((line) => line.includes('"recordId":"chunk-1"'))!).vector).toBe('AAAAPwAAoL8AAMB/AAAAgA==');
  });

  it('reproduces every record exactly: CJK, emoji, RTL, lone surrogates, controls, vector bits', async () => {
    const original = sampleVault();
    const { state, manifest, encrypted } = await readVaultState(writeVaultState(sampleMeta(), original));
    expect(encrypted).toBe(false);
    expect(manifest.vaultId).toBe('vault-test');
    expect(await vaultDigest(state)).toBe(await vaultDigest(original));
    expect(state.messages.map((m) => m.text)).toEqual([HARD_TEXT.emoji, HARD_TEXT.rtl, HARD_TEXT.loneSurrogates, HARD_TEXT.specials]);
    expect(state.notes[0]!.text).toBe(original.notes[0]!.text);
    const vector = state.vectors[0]!.vector;
    expect(vector).toBeInstanceOf(Float32Array);
    expect([vector[0], vector[1], Number.isNaN(vector[2]), Object.is(vector[3], -0)]).toEqual([0.5, -1.25, true, true]);
  });

  it('never turns a lone surrogate into U+FFFD on the byte path', async () => {
    const state = emptyVaultState();
    const lone = ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud83d', '\ude00b', '\udc00\ud800'];
    lone.forEach((text, i) => state.notes.push(note({ id: `note-${i}`, text })));
    const bytes = await collectBytes(writeVaultState(sampleMeta(), state));
    const replacement = [0xef, 0xbf, 0xbd];
    const hasReplacement = bytes.some((_, i) => replacement.every((b, j) => bytes[i + j] === b));
    expect(hasReplacement).toBe(false);
    expect(decode(bytes)).toContain('"text":"\\ud800"');
    const back = await readVaultState(streamOf(bytes, [1, 2, 3]));
    expect(back.state.notes.map((n) => n.text)).toEqual(lone);
  });

  it('reads the same whatever the stream chunking (one byte at a time, odd sizes)', async () => {
    const bytes = await collectBytes(writeVaultState(sampleMeta(), sampleVault()));
    const expected = await vaultDigest(sampleVault());
    for (const pieces of [[1], [2, 3, 5, 7], [4096], [bytes.length]]) {
      const { state } = await readVaultState(streamOf(bytes, pieces));
      expect(await vaultDigest(state)).toBe(expected);
    }
  });

  it('yields manifest, record batches and section ends in file order, and `end` last', async () => {
    const bytes = await collectBytes(writeVaultState(sampleMeta(), sampleVault()));
    const outcome = await readAll(bytes, { batchSize: 2 });
    expect(outcome.error).toBeNull();
    const kinds = outcome.events.map((e) =>
      e.kind === 'records' ? `records:${e.section}:${e.records.length}` : e.kind === 'section-end' ? `end:${e.section}` : e.kind,
    );
    expect(kinds.slice(0, 6)).toEqual([
      'manifest',
      'records:conversations:1',
      'end:conversations',
      'records:messages:2',
      'records:messages:2',
      'end:messages',
    ]);
    expect(kinds.at(-1)).toBe('end');
    expect(kinds.filter((k) => k === 'end')).toHaveLength(1);
  });

  it('writes a file without vectors when the vectors section is left out', async () => {
    const { state, manifest } = await readVaultState(writeVaultState(sampleMeta(), sampleVault(), { vectors: false }));
    expect(manifest.vectorsIncluded).toBe(false);
    expect(manifest.sections).not.toContain('vectors');
    expect(state.vectors).toEqual([]);
    expect(state.notes).toHaveLength(1);
  });

  it('fails the export when a table yields more or fewer records than it was counted at', async () => {
    const sections = sectionsOf(sampleVault(), { vectors: false });
    for (const count of [0, 3]) {
      const stream = writeVault(sampleMeta(), { ...sections, messages: { count, records: sampleVault().messages } });
      await expect(collectBytes(stream)).rejects.toMatchObject({
        code: 'vault/failed',
        message: expect.stringContaining('changed while it was being exported'),
      });
    }
  });

  it('fails the export of a record the reader would refuse (a note without a clock stamp)', async () => {
    const broken = { ...note(), hlc: undefined } as unknown as NoteRecord;
    const stream = writeVault(sampleMeta(), {
      ...sectionsOf(emptyVaultState(), { vectors: false }),
      notes: { count: 1, records: [broken] },
    });
    await expect(collectBytes(stream)).rejects.toMatchObject({ code: 'vault/failed', message: expect.stringContaining('`hlc`') });
  });

  it('writes as a pull stream: reading the first pieces draws only the records needed for them', async () => {
    let produced = 0;
    const total = 100_000;
    async function* lazyNotes() {
      for (let i = 0; i < total; i++) {
        produced++;
        yield note({ id: `note-${i}`, text: `note number ${i} 庭園` });
      }
    }
    const sections = { ...sectionsOf(emptyVaultState(), { vectors: false }), notes: { count: total, records: lazyNotes() } };
    const reader = writeVault(sampleMeta(), sections).getReader();
    // manifest + 5 framing lines of the empty sections before notes, then a few pieces of notes
    for (let i = 0; i < 10; i++) await reader.read();
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(2_000);
    await reader.cancel();
  });

  it('reads as a stream: the first records arrive before the source has delivered the whole file', async () => {
    const state = emptyVaultState();
    for (let i = 0; i < 5_000; i++) state.notes.push(note({ id: `note-${i}`, text: `note ${i}` }));
    const bytes = await collectBytes(writeVaultState(sampleMeta(), state));
    let delivered = 0;
    const source = streamOf(bytes, [4096]).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          delivered += chunk.length;
          controller.enqueue(chunk);
        },
      }),
    );
    const { readVault } = await import('../../../src/lib/core/vaultfile/reader');
    for await (const event of readVault(source, { batchSize: 100 })) {
      if (event.kind === 'records' && event.section === 'notes') break;
    }
    expect(delivered).toBeLessThan(bytes.length / 2);
    expect(completed(await readAll(bytes))).toBe(true);
  });
});
