import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../src/lib/store/importer';
import { openVault } from '../../../src/lib/store/vault';

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

describe('runImport never stores a partial file', () => {
  it.skipIf(!present)(
    'a damaged export either imports whole (report = vault) or stores nothing; it never throws',
    async () => {
      const vault = await openVault(`never-partial-${Date.now()}`);
      let seq = 0;
      for (const base of BASES) {
        const bytes = new Uint8Array(readFileSync(resolve(SAMPLES, base)));
        await fc.assert(
          fc.asyncProperty(damaged(bytes), async (input) => {
            // Each run starts from an empty vault, so what is there afterwards came from this file.
            await vault.db.conversations.clear();
            await vault.db.messages.clear();
            await vault.db.notes.clear();
            const started = Date.now();
            const report = await runImport(vault, [{ name: `damaged-${++seq}.json`, size: input.length, bytes: input }]);
            expect(Date.now() - started).toBeLessThan(5_000);
            const file = report.files[0]!;
            const conversations = await vault.db.conversations.count();
            const visibleThread = (await vault.db.messages.toArray()).filter((m) => m.branch.onVisiblePath && !m.hidden).length;
            if (file.status === 'failed') {
              expect(file.errors.length).toBeGreaterThan(0);
              expect(file.errors[0]!.code).toMatch(/^import\//);
              expect({ conversations, messages: await vault.db.messages.count(), notes: await vault.db.notes.count() }).toEqual({
                conversations: 0,
                messages: 0,
                notes: 0,
              });
            } else {
              expect(conversations).toBe(file.conversations.stored);
              expect(visibleThread).toBe(file.messages.stored);
              expect(await vault.db.notes.count()).toBe(file.resources.stored);
              expect(await vault.db.conversations.where('state').equals('staged').count()).toBe(0);
            }
          }),
          { numRuns: 60 },
        );
      }
      vault.db.close();
    },
    120_000,
  );
});
