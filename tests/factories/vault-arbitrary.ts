import fc from 'fast-check';
import type {
  ChunkRecord,
  ConversationRecord,
  HistoryRecord,
  ImportRecord,
  MessageRecord,
  NoteRecord,
  SettingRecord,
  TombstoneRecord,
  VectorRecord,
} from '../../src/lib/core/records';
import { encodeHlc } from '../../src/lib/core/vaultfile/hlc';
import {
  recordKey,
  STAMPED_SECTIONS,
  tombstoneKey,
  type SectionName,
  type SectionRecords,
  type VaultState,
} from '../../src/lib/core/vaultfile/sections';
import { survivesTombstone } from '../../src/lib/core/vaultfile/version-order';

/**
 * fast-check generators of random vault states for the merge laws and the round trip.
 *
 * Ids, clock stamps and model ids come from small pools so that independently generated states
 * share records, edit the same note at different (and equal) clocks, and delete what another state
 * edited: the interesting cases of merge happen in most runs, not by luck. Text mixes ASCII, CJK,
 * emoji (surrogate pairs, ZWJ sequences, flags), RTL scripts and bidi controls, combining marks,
 * control characters, U+FFFD itself, a BOM, and lone surrogates.
 */

export { runs } from './vault-runs';

const codePoint = (min: number, max: number) => fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));

/** One "character" of test text; lone surrogates are single UTF-16 code units. */
export const textUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: codePoint(0x20, 0x7e) },
  { weight: 2, arbitrary: codePoint(0x4e00, 0x9fff) }, // CJK
  { weight: 1, arbitrary: codePoint(0x3040, 0x30ff) }, // kana
  { weight: 2, arbitrary: codePoint(0x0590, 0x06ff) }, // Hebrew, Arabic (RTL)
  { weight: 2, arbitrary: codePoint(0x1f300, 0x1faff) }, // emoji (astral: a surrogate pair)
  { weight: 1, arbitrary: fc.constantFrom('👩‍👩‍👧', '🇯🇵', '👍🏽', '\u200f', '\u202e', '\u2066', 'é', 'e\u0301', '\ufffd', '\ufeff') },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n', '\t', '\u0000', '\u2028', '"', '\\') },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)) }, // lone surrogate
);

export const text = (maxLength = 24): fc.Arbitrary<string> => fc.array(textUnit, { maxLength }).map((units) => units.join(''));

export const hlcArb: fc.Arbitrary<string> = fc
  .record({ wall: fc.integer({ min: 1, max: 4 }), counter: fc.integer({ min: 0, max: 2 }), node: fc.constantFrom('n1', 'n2') })
  .map((h) => encodeHlc({ wall: 1_700_000_000_000 + h.wall, counter: h.counter, node: h.node }));

const idOf = (prefix: string) => fc.integer({ min: 1, max: 4 }).map((n) => `${prefix}-${n}`);
const time = fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 });
const maybeTime = fc.option(time, { nil: null });
const tier = fc.constantFrom('engram', 'resource', 'chat', 'web' as const);
const flags = fc.array(fc.constantFrom('injection', 'secret', 'hidden-text'), { maxLength: 2 });
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  text(8),
  fc.array(text(4), { maxLength: 3 }),
  fc.dictionary(text(4), fc.integer(), { maxKeys: 3 }),
);

export const conversationArb: fc.Arbitrary<ConversationRecord> = fc.record({
  id: idOf('conv'),
  source: fc.constantFrom('chatgpt', 'claude', 'gemini', 'paste' as const),
  externalId: text(6),
  title: text(),
  createdAt: maybeTime,
  updatedAt: maybeTime,
  contentHash: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 8 }),
  importId: idOf('imp'),
  state: fc.constantFrom('staged', 'visible' as const),
  messageCount: fc.nat(500),
  hlc: hlcArb,
});

export const messageArb: fc.Arbitrary<MessageRecord> = fc.record({
  id: idOf('msg'),
  conversationId: idOf('conv'),
  externalId: text(6),
  role: fc.constantFrom('user', 'assistant', 'system', 'tool' as const),
  text: text(40),
  createdAt: maybeTime,
  ordinal: fc.nat(200),
  branch: fc.record({ onVisiblePath: fc.boolean(), parentExternalId: fc.option(text(6), { nil: null }) }),
  hidden: fc.boolean(),
  contentHash: text(8),
  flags,
  importId: idOf('imp'),
  state: fc.constantFrom('staged', 'visible' as const),
  hlc: hlcArb,
});

export const noteArb: fc.Arbitrary<NoteRecord> = fc.record({
  id: idOf('note'),
  text: text(40),
  category: fc.constantFrom('Decisions', 'Facts', 'Open Questions', 'Ideas'),
  status: fc.constantFrom('provisional', 'kept', 'archived', 'superseded', 'discarded' as const),
  tier,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  sourceMessageIds: fc.array(idOf('msg'), { maxLength: 3 }),
  conversationId: fc.option(idOf('conv'), { nil: null }),
  createdAt: time,
  updatedAt: time,
  keptAt: maybeTime,
  supersedes: fc.option(idOf('note'), { nil: null }),
  supersededBy: fc.option(idOf('note'), { nil: null }),
  accessCount: fc.nat(50),
  lastAccessedAt: maybeTime,
  pinned: fc.boolean(),
  contentHash: text(8),
  flags,
  hlc: hlcArb,
});

export const chunkArb: fc.Arbitrary<ChunkRecord> = fc.record({
  id: idOf('chunk'),
  parentType: fc.constantFrom('message', 'note', 'resource' as const),
  parentId: idOf('msg'),
  conversationId: fc.option(idOf('conv'), { nil: null }),
  messageIds: fc.array(idOf('msg'), { maxLength: 3 }),
  text: text(40),
  headingPath: fc.array(text(8), { maxLength: 3 }),
  tokenCount: fc.nat(400),
  tier,
  contentHash: text(8),
  createdAt: time,
  hlc: hlcArb,
});

export const historyArb: fc.Arbitrary<HistoryRecord> = fc.record({
  id: idOf('hist'),
  table: fc.constantFrom('notes', 'conversations', 'messages', 'chunks' as const),
  recordId: idOf('note'),
  at: time,
  actor: fc.constantFrom('user', 'curator', 'extractor', 'merge', 'import', 'system' as const),
  action: fc.constantFrom('edit', 'keep', 'archive'),
  before: jsonValue,
  after: jsonValue,
  why: text(),
});

export const importArb: fc.Arbitrary<ImportRecord> = fc.record({
  id: idOf('imp'),
  startedAt: time,
  finishedAt: maybeTime,
  status: fc.constantFrom('running', 'done', 'failed', 'cancelled' as const),
  label: text(),
  report: jsonValue,
});

export const settingArb: fc.Arbitrary<SettingRecord> = fc.record({
  key: fc.constantFrom('theme', 'budget', 'embedder', '設定'),
  value: jsonValue,
});

export const tombstoneArb: fc.Arbitrary<TombstoneRecord> = fc
  .record({
    table: fc.constantFrom(...STAMPED_SECTIONS),
    id: fc.integer({ min: 1, max: 4 }),
    hlc: hlcArb,
    deletedAt: time,
  })
  .map((t) => ({ ...t, id: `${{ conversations: 'conv', messages: 'msg', notes: 'note', chunks: 'chunk' }[t.table]}-${t.id}` }));

export const vectorArb: fc.Arbitrary<VectorRecord> = fc
  .record({
    recordId: idOf('chunk'),
    modelId: fc.constantFrom('lexical-v1', 'minilm'),
    vector: fc.float32Array({ maxLength: 6 }),
    contentHash: text(8),
    label: fc.nat(1000),
  })
  .map((v) => ({ ...v, dims: v.vector.length }));

function unique<K extends SectionName>(
  section: K,
  arb: fc.Arbitrary<SectionRecords[K]>,
  maxLength: number,
): fc.Arbitrary<SectionRecords[K][]> {
  return fc.uniqueArray(arb, { maxLength, selector: (record) => recordKey(section, record) });
}

/**
 * A valid vault state: keys unique per table and no record dominated by its own tombstone (what a
 * device can hold; merge's precondition).
 */
export const vaultStateArb: fc.Arbitrary<VaultState> = fc
  .record({
    conversations: unique('conversations', conversationArb, 3),
    messages: unique('messages', messageArb, 4),
    notes: unique('notes', noteArb, 4),
    chunks: unique('chunks', chunkArb, 3),
    history: unique('history', historyArb, 3),
    imports: unique('imports', importArb, 2),
    settings: unique('settings', settingArb, 2),
    tombstones: unique('tombstones', tombstoneArb, 4),
    vectors: unique('vectors', vectorArb, 3),
  })
  .map((state) => {
    const tombs = new Map(state.tombstones.map((t) => [tombstoneKey(t.table, t.id), t]));
    for (const section of STAMPED_SECTIONS) {
      (state[section] as SectionRecords[typeof section][]) = state[section].filter((record) =>
        survivesTombstone(record, tombs.get(tombstoneKey(section, record.id))),
      );
    }
    return state;
  });
