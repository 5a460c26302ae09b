import type { VaultExportMeta } from '../../src/lib/core/vaultfile/format';
import { encodeHlc } from '../../src/lib/core/vaultfile/hlc';
import { emptyVaultState, type VaultState } from '../../src/lib/core/vaultfile/sections';
import { chunk, conversation, message, note } from './records';
import { seededRng } from './rng';
import { concatBytes } from '../../src/lib/core/vaultfile/bytes';

/** Fixed vault states and byte-stream helpers for the vault-file tests and the benchmark. */

/** Text that must survive a file round trip exactly. */
export const HARD_TEXT = {
  cjk: '日本庭園の苔と石、中文测试，한국어 텍스트',
  emoji: 'ok 🙂 family 👩‍👩‍👧 flag 🇯🇵 skin 👍🏽',
  rtl: 'שלום עולם — مرحبا بالعالم \u200f\u202eoverride\u202c',
  loneSurrogates: 'high \ud800 low \udc00 reversed \udc00\ud800 trailing \ud83d',
  specials: 'nul \u0000 line-sep \u2028 bom \ufeff replacement \ufffd quote " backslash \\ newline \n tab \t',
};

export const ALL_HARD_TEXT = Object.values(HARD_TEXT).join(' | ');

export function sampleMeta(over: Partial<VaultExportMeta> = {}): VaultExportMeta {
  return {
    vaultId: 'vault-test',
    createdAt: 1_700_000_000_000,
    exportedAt: 1_700_000_500_000,
    appVersion: '0.1.0-test',
    embeddingModelId: 'lexical-v1',
    ...over,
  };
}

const stamp = (wall: number, counter = 0, node = 'dev') => encodeHlc({ wall: 1_700_000_000_000 + wall, counter, node });

/** One or more rows of every table, with every kind of hard text. */
export function sampleVault(): VaultState {
  const state = emptyVaultState();
  state.conversations.push(conversation({ title: HARD_TEXT.cjk, hlc: stamp(1) }));
  state.messages.push(
    message({ id: 'msg-1', text: HARD_TEXT.emoji, hlc: stamp(2) }),
    message({ id: 'msg-2', ordinal: 1, role: 'assistant', text: HARD_TEXT.rtl, hlc: stamp(3) }),
    message({ id: 'msg-3', ordinal: 2, text: HARD_TEXT.loneSurrogates, hlc: stamp(4) }),
    message({ id: 'msg-4', ordinal: 3, text: HARD_TEXT.specials, hlc: stamp(5) }),
  );
  state.notes.push(note({ text: ALL_HARD_TEXT, hlc: stamp(6) }));
  state.chunks.push(chunk({ text: HARD_TEXT.cjk, headingPath: [HARD_TEXT.rtl], hlc: stamp(7) }));
  state.history.push({
    id: 'hist-1',
    table: 'notes',
    recordId: 'note-1',
    at: 1,
    actor: 'user',
    action: 'edit',
    before: null,
    after: { text: HARD_TEXT.emoji },
    why: 'typed',
  });
  state.imports.push({
    id: 'imp-1',
    startedAt: 1,
    finishedAt: 2,
    status: 'done',
    label: 'chatgpt export',
    report: { found: 4, stored: 4 },
  });
  state.settings.push({ key: 'theme', value: 'dark' }, { key: 'budget', value: { tokens: 58_000 } });
  state.tombstones.push({ table: 'notes', id: 'note-gone', hlc: stamp(8), deletedAt: 1_700_000_000_008 });
  state.vectors.push({
    recordId: 'chunk-1',
    modelId: 'lexical-v1',
    dims: 4,
    vector: new Float32Array([0.5, -1.25, NaN, -0]),
    contentHash: 'a'.repeat(64),
    label: 0,
  });
  return state;
}

/** Deterministic PRNG (mulberry32) so generated vaults are identical run to run. */
export const seededRandom = seededRng;

const WORDS = [
  'garden',
  'maple',
  'prune',
  'winter',
  'moss',
  'stone',
  'lantern',
  'path',
  'water',
  'bridge',
  '庭園',
  '苔',
  'שלום',
  '🙂',
  'decision',
  'budget',
];

/** A large vault shaped like a real one: conversations of messages, notes, chunks. */
export function generateVault(options: {
  conversations: number;
  messagesPerConversation: number;
  notes: number;
  chunks: number;
  seed?: number;
}): VaultState {
  const rnd = seededRandom(options.seed ?? 42);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
  const state = emptyVaultState();
  let clock = 0;
  for (let c = 0; c < options.conversations; c++) {
    const convId = `conv-${c}`;
    state.conversations.push(
      conversation({
        id: convId,
        externalId: `ext-${c}`,
        title: words(6),
        messageCount: options.messagesPerConversation,
        hlc: stamp(clock++),
      }),
    );
    for (let m = 0; m < options.messagesPerConversation; m++) {
      state.messages.push(
        message({
          id: `msg-${c}-${m}`,
          conversationId: convId,
          externalId: `node-${m}`,
          ordinal: m,
          role: m % 2 ? 'assistant' : 'user',
          text: words(40 + Math.floor(rnd() * 80)),
          hlc: stamp(clock++),
        }),
      );
    }
  }
  for (let n = 0; n < options.notes; n++) state.notes.push(note({ id: `note-${n}`, text: words(12), hlc: stamp(clock++) }));
  for (let k = 0; k < options.chunks; k++)
    state.chunks.push(chunk({ id: `chunk-${k}`, parentId: `msg-0-${k % 10}`, text: words(60), hlc: stamp(clock++) }));
  return state;
}

/** Reads a whole stream into one byte array (tests only: small files). */
export async function collectBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return concatBytes(parts);
}

/** A stream over bytes, cut into pieces of the given sizes (cycled), to exercise chunk boundaries. */
export function streamOf(bytes: Uint8Array, pieceSizes: readonly number[] = [65_536]): ReadableStream<Uint8Array> {
  let offset = 0;
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const size = Math.max(1, pieceSizes[i++ % pieceSizes.length]!);
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}
