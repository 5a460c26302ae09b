import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../src/lib/store/importer';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { chatgptExport } from '../../factories/import-generator';
import { concatBytes } from '../../../src/lib/core/vaultfile/bytes';
import { allMessages, countStoredMessages } from '../../../src/lib/store/messages-store';

const SAMPLES = resolve(process.cwd(), '../shared/data/exports');
const present = existsSync(SAMPLES);
const BASES = [
  'chatgpt/librechat_chatgpt-tree.json',
  'claude/polylogue_claude-ai_showcase-03.json',
  'openwebui/librechat_openwebui-export.json',
];

/** A damaged copy of a valid export: cut short, bytes overwritten, or a slice dropped. */
const damaged = (bytes: Uint8Array) =>
  fc.oneof(
    fc.nat({ max: bytes.length }).map((n) => bytes.slice(0, n)),
    fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 8 })).map(([at, junk]) => {
      const copy = bytes.slice();
      copy.set(junk.slice(0, copy.length - at), at);
      return copy;
    }),
    fc
      .tuple(fc.nat({ max: bytes.length }), fc.nat({ max: 200 }))
      .map(([at, n]) => new Uint8Array([...bytes.slice(0, at), ...bytes.slice(at + n)])),
  );

/** A generated ChatGPT export (always available, unlike the samples), as one byte array. */
function generatedExport(): Uint8Array {
  return concatBytes([...chatgptExport({ conversations: 4, targetBytes: 12_000, seed: 7 }).chunks]);
}

/**
 * The property: whatever the damage, the file imports whole (what the report says is stored is
 * exactly what the vault holds, nothing left staged) or it fails with an `import/` error and the
 * vault holds nothing from it. `runImport` never throws. Returns how many runs ended each way, so
 * the caller can check that both outcomes were exercised.
 */
async function checkNeverPartial(vault: Vault, bytes: Uint8Array, name: string): Promise<{ failed: number; whole: number }> {
  const seen = { failed: 0, whole: 0 };
  let seq = 0;
  await fc.assert(
    fc.asyncProperty(damaged(bytes), async (input) => {
      // Each run starts from an empty vault, so what is there afterwards came from this file.
      await vault.db.conversations.clear();
      await vault.db.messages.clear();
      await vault.db.messageBlocks.clear();
      await vault.db.notes.clear();
      const report = await runImport(vault, [{ name: `${name}-damaged-${++seq}.json`, size: input.length, bytes: input }]);
      const file = report.files[0]!;
      const stored = {
        conversations: await vault.db.conversations.count(),
        messages: await countStoredMessages(vault.db),
        notes: await vault.db.notes.count(),
      };
      if (file.status === 'failed') {
        seen.failed++;
        expect(file.errors.length).toBeGreaterThan(0);
        expect(file.errors[0]!.code).toMatch(/^import\//);
        expect(stored).toEqual({ conversations: 0, messages: 0, notes: 0 });
      } else {
        seen.whole++;
        expect(file.status).toBe('done');
        const visibleThread = (await allMessages(vault.db)).filter((m) => m.branch.onVisiblePath && !m.hidden).length;
        expect(stored.conversations).toBe(file.conversations.stored);
        expect(visibleThread).toBe(file.messages.stored);
        expect(stored.notes).toBe(file.resources.stored);
        expect(await vault.db.conversations.where('state').equals('staged').count()).toBe(0);
      }
    }),
    { numRuns: 60, seed: 20_240_501 },
  );
  return seen;
}

describe('runImport never stores a partial file', () => {
  it('a damaged generated export either imports whole (report = vault) or stores nothing; it never throws', async () => {
    const vault = await openVault(`never-partial-generated-${Date.now()}`);
    try {
      const seen = await checkNeverPartial(vault, generatedExport(), 'generated');
      // Both sides of the property ran: some damage was fatal, some left a valid export.
      expect(seen.failed).toBeGreaterThan(0);
      expect(seen.whole).toBeGreaterThan(0);
    } finally {
      vault.db.close();
    }
  }, 120_000);

  it.skipIf(!present)(
    `the same for damaged copies of three real sample exports (needs ${SAMPLES})`,
    async () => {
      const vault = await openVault(`never-partial-samples-${Date.now()}`);
      try {
        const seen = { failed: 0, whole: 0 };
        for (const base of BASES) {
          const outcome = await checkNeverPartial(vault, new Uint8Array(readFileSync(resolve(SAMPLES, base))), base);
          seen.failed += outcome.failed;
          seen.whole += outcome.whole;
        }
        expect(seen.failed).toBeGreaterThan(0);
        expect(seen.whole).toBeGreaterThan(0);
      } finally {
        vault.db.close();
      }
    },
    120_000,
  );
});
