/**
 * Property: random mutations of valid exports (keys dropped, types changed, bytes cut, junk
 * inserted) never throw past the parser, always end in a summary whose errors have the app's
 * error shape, keep the output contract, reconcile their counts, and finish in seconds.
 */
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isVaultError } from '../../../src/lib/core/errors';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import { countMessages, emptyCounts, type ParsedFile } from '../../../src/lib/core/import/parsed';
import { chatgptExport } from '../../factories/import-generator';
import { chatgptConversation, claudeConversation, utf8 } from '../../factories/import-fixtures';

const SAMPLES = resolve(process.cwd(), '../shared/data/exports');

function baseDocuments(): [string, string][] {
  const docs: [string, string][] = [
    [
      'chatgpt fixture',
      JSON.stringify([
        chatgptConversation(
          [
            { id: 'r', parent: null, empty: true },
            { id: 'u', parent: 'r' },
            { id: 'a', parent: 'u', role: 'assistant' },
            { id: 'b', parent: 'u', role: 'assistant' },
          ],
          'a',
        ),
      ]),
    ],
    [
      'claude fixture',
      JSON.stringify([
        claudeConversation([
          {
            uuid: 'm',
            sender: 'human',
            text: '',
            content: [
              { type: 'text', text: 'x' },
              { type: 'thinking', thinking: 't' },
            ],
          },
        ]),
      ]),
    ],
    ['transcript', 'User: hi\n```\nAssistant: fenced\n```\nAssistant: hello'],
    [
      'generated',
      new TextDecoder().decode(chatgptExport({ conversations: 3, targetBytes: 20_000, seed: 5 }).chunks[Symbol.iterator]().next().value),
    ],
  ];
  if (existsSync(SAMPLES)) {
    for (const dir of readdirSync(SAMPLES)) {
      for (const file of readdirSync(resolve(SAMPLES, dir)).filter((f) => f.endsWith('.json')))
        docs.push([`${dir}/${file}`, readFileSync(resolve(SAMPLES, dir, file), 'utf8')]);
    }
  }
  return docs;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every container path in a JSON value (bounded), for picking a random place to mutate. */
function containers(value: Json, out: Json[] = []): Json[] {
  if (out.length > 2000 || value === null || typeof value !== 'object') return out;
  out.push(value);
  for (const child of Array.isArray(value) ? value : Object.values(value)) containers(child, out);
  return out;
}

const REPLACEMENTS: Json[] = [null, 0, -1.5, '', 'text', true, [], {}, [null], { mapping: null }];

function mutateJson(text: string, kind: number, pick: number, choice: number): string {
  const root = JSON.parse(text) as Json;
  const places = containers(root);
  const target = places[pick % places.length];
  if (target === undefined || target === null || typeof target !== 'object') return text;
  const keys = Array.isArray(target) ? target.map((_, i) => i) : Object.keys(target);
  if (keys.length === 0) return text;
  const key = keys[choice % keys.length]!;
  const holder = target as Record<string | number, Json>;
  if (kind === 0) {
    if (Array.isArray(target)) target.splice(key as number, 1);
    else delete holder[key];
  } else holder[key] = REPLACEMENTS[choice % REPLACEMENTS.length]!;
  return JSON.stringify(root);
}

function mutateBytes(bytes: Uint8Array, kind: number, at: number, junk: Uint8Array): Uint8Array {
  const cut = at % (bytes.length + 1);
  if (kind === 2) return bytes.slice(0, cut);
  const out = new Uint8Array(bytes.length + junk.length);
  out.set(bytes.subarray(0, cut));
  out.set(junk, cut);
  out.set(bytes.subarray(cut), cut + junk.length);
  return out;
}

/** The output contract of parsed.ts, checked on whatever came out. */
function checkContract(file: ParsedFile): void {
  expect(Array.isArray(file.summary.errors)).toBe(true);
  for (const e of file.summary.errors) expect(isVaultError(e)).toBe(true);
  const counts = emptyCounts();
  for (const c of file.conversations) {
    expect(typeof c.externalId).toBe('string');
    expect(c.externalId.length).toBeGreaterThan(0);
    const ids = new Set(c.messages.map((m) => m.externalId));
    expect(ids.size).toBe(c.messages.length);
    let seenBranch = false;
    for (const m of c.messages) {
      expect(['user', 'assistant', 'system', 'tool']).toContain(m.role);
      expect(typeof m.text).toBe('string');
      if (m.parentExternalId !== null) expect(ids.has(m.parentExternalId)).toBe(true);
      if (!m.onVisiblePath) seenBranch = true;
      else expect(seenBranch).toBe(false);
    }
    countMessages(c.messages, counts);
  }
  expect(file.summary.messages).toEqual(counts);
  expect(file.summary.conversations).toBe(file.conversations.length);
}

/** A guard, not a benchmark: a run that hangs fails instead of stalling the suite. */
async function withinSeconds<T>(seconds: number, run: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`parse did not finish within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('parser robustness (property)', () => {
  const docs = baseDocuments();

  it('never throws past the parser on mutated exports, and keeps the contract', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(docs.length - 1),
        fc.nat(4),
        fc.nat(),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 12 }),
        fc.constantFrom(1, 3, 64, 4096),
        async (doc, kind, pick, choice, junk, chunk) => {
          const [, text] = docs[doc]!;
          let bytes: Uint8Array;
          if (kind <= 1) {
            if (!text.trimStart().match(/^[[{]/u)) return;
            bytes = utf8(mutateJson(text, kind, pick, choice));
          } else if (kind === 4) bytes = mutateBytes(utf8(text), 3, pick, utf8(['}', ']', '"', ',', '\\', '{"a":', '[['][choice % 7]!));
          else bytes = mutateBytes(utf8(text), kind, pick, junk);
          const source = (async function* () {
            for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
          })();
          const file = await withinSeconds(5, parseAll(source, { name: 'mutant.json' }));
          checkContract(file);
        },
      ),
      { numRuns: 400 },
    );
  }, 120_000);

  it('never throws on damaged ZIPs: bytes flipped, cut or inserted anywhere', async () => {
    const archive = zipSync({ 'conversations.json': utf8(docs[0]![1]), 'chat.html': utf8('<html></html>'), 'user.json': utf8('{"id":1}') });
    await fc.assert(
      fc.asyncProperty(fc.nat(2), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 }), async (kind, at, junk) => {
        let bytes: Uint8Array;
        if (kind === 0) {
          bytes = archive.slice();
          junk.forEach((b, i) => (bytes[(at + i * 31) % bytes.length] = b));
        } else bytes = mutateBytes(archive, kind === 1 ? 2 : 3, 4 + (at % (archive.length - 4)), junk);
        checkContract(await withinSeconds(5, parseAll(bytes, { name: 'mutant.zip' })));
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('ends every truncation of every base document in a result, never an exception', async () => {
    for (const [, text] of docs) {
      const bytes = utf8(text);
      const step = Math.max(1, Math.floor(bytes.length / 40));
      for (let cut = 0; cut <= bytes.length; cut += step) {
        const file = await withinSeconds(5, parseAll(bytes.slice(0, cut)));
        checkContract(file);
        if (cut === 0) expect(file.summary.errors.map((e) => e.code)).toEqual(['import/empty']);
      }
    }
  }, 120_000);
});
