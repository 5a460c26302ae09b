/**
 * What the heavy archive's import waits on (issue 19): raw IndexedDB writes in Chromium, 400k
 * message-shaped rows (about 1 KB of words each, 40 to a conversation, 500 to a transaction, relaxed
 * durability), in these layouts:
 *
 * - `random`: a hash per message, as the vault's message ids are (`msg_<hash>`), with the messages
 *   table's indexes up to schema version 8: [conversationId+ordinal], importId, state;
 * - `by_conversation`: the same indexes, ids that start with their conversation's hash;
 * - `sequential`: the same indexes, an increasing number;
 * - `random_conversation_index`: hashed ids with the indexes of schema version 10:
 *   [conversationId+ordinal] and the sparse `stagedBy`, which no row of a new conversation enters;
 * - `random_no_index`: hashed ids and no index at all (what any layout with an index costs above it);
 * - `blocks`: the same messages, one row per conversation holding its 40 messages in an array
 *   (a layout of several messages per row; a conversation cut by a transaction's edge is two
 *   rows), keyed by the conversation, no index;
 * - `blocks_message_index`: the same blocks with a multi-entry index of their message ids (what a
 *   lookup by message id would need in that layout: the vault's `messageBlocks` since schema 11).
 *   The message ids of these two block layouts increase (`msg_<n>`), so their index is written
 *   in order; the vault's are hashes, as in the three layouts below;
 * - `blocks_random_ids`: `blocks_message_index` with hashed message ids (as schema 11 first wrote
 *   `messageBlocks`: random block keys, a random place in the index per message);
 * - `blocks_random_ids_sequential`: the same, the blocks keyed by an increasing number (a block's
 *   key is device-local, so the vault could write them in write order);
 * - `blocks_random_ids_json`: `blocks_random_ids` with the block's messages as one JSON string
 *   (one string for the page's structured clone instead of 40 objects).
 *
 * Each layout runs in a fresh on-disk Chromium profile (one origin's databases share one LevelDB, so a
 * layout measured after another would inherit its files). Figures:
 * `store.idb_keys.400k.<layout>.seconds` (400k messages, however many rows hold them), with the rate of
 * every 50k messages and the seconds spent making the rows in the page (`makeSeconds`, part of the
 * figure) in the meta. No vault code runs: this isolates the database's cost from the importer's. The heavy groups run once per
 * invocation (`BENCH_HEAVY_RUNS`); `KEYS_LAYOUTS=a,b` runs only those layouts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import type { BenchModule, FigureSamples } from './harness';
import { heavyRuns } from './import.bench';

const ALL_LAYOUTS = [
  'random',
  'by_conversation',
  'sequential',
  'random_conversation_index',
  'random_no_index',
  'blocks',
  'blocks_message_index',
  'blocks_random_ids',
  'blocks_random_ids_sequential',
  'blocks_random_ids_json',
] as const;
type Layout = (typeof ALL_LAYOUTS)[number];
const isLayout = (name: string): name is Layout => (ALL_LAYOUTS as readonly string[]).includes(name);

/** `KEYS_LAYOUTS=a,b`: only those layouts; a name that is none of them is an error, not a silent default. */
function layoutsToRun(asked: string | undefined): readonly Layout[] {
  if (asked === undefined) return ALL_LAYOUTS;
  const names = asked.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !isLayout(n));
  if (unknown.length > 0) throw new Error(`KEYS_LAYOUTS: unknown layout ${unknown.join(', ')} (known: ${ALL_LAYOUTS.join(', ')})`);
  return names.filter(isLayout);
}
const ROWS = 400_000;
const STEP = 50_000;
const BATCH = 500;
const PER_CONVERSATION = 40;

interface KeysRun {
  seconds: number;
  /** Of `seconds`, the time spent making the rows' words and keys in the page (not the database's). */
  makeSeconds: number;
  /** Rows per second of each 50k rows, in order. */
  rates: number[];
}

/** Runs in the page: writes the rows and times each step. Self-contained (no imports). */
async function writeRows([layout, rows, step, batch, perConversation]: [Layout, number, number, number, number]): Promise<KeysRun> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(`keys-${layout}`, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore('messages', { keyPath: 'id' });
      if (layout === 'random_no_index' || layout === 'blocks') return;
      if (layout === 'blocks_message_index' || layout.startsWith('blocks_random_ids')) {
        store.createIndex('messageIds', 'messageIds', { multiEntry: true });
        return;
      }
      store.createIndex('conversation', ['conversationId', 'ordinal']);
      if (layout === 'random_conversation_index') {
        // Schema version 10: a sparse index no imported row of a new conversation enters.
        store.createIndex('stagedBy', 'stagedBy');
      } else {
        store.createIndex('importId', 'importId');
        store.createIndex('state', 'state');
      }
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  // A seeded generator (mulberry32): every layout writes the same texts and keys.
  let seed = 19;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const hex = () =>
    Array.from({ length: 4 }, () =>
      Math.floor(rand() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
  const words =
    'the a of to and in is it garden maple prune soil water light index query vector cluster deploy rollback chart schema tenant memory budget token recall precision branch export import stream chunk parser'.split(
      ' ',
    );
  const text = () => {
    let s = '';
    while (s.length < 900) s += `${words[Math.floor(rand() * words.length)]} `;
    return s;
  };
  const rates: number[] = [];
  const started = performance.now();
  let stepStarted = started;
  let conversation = '';
  let makeMs = 0;
  const blocks = layout.startsWith('blocks');
  let blockSeq = 0;
  for (let n = 0; n < rows; n += batch) {
    const made = performance.now();
    const batchRows: Record<string, unknown>[] = [];
    for (let i = n; i < n + batch; i++) {
      if (i % perConversation === 0) conversation = `conv_${hex()}`;
      const own = hex();
      const id =
        layout === 'random' ||
        layout === 'random_conversation_index' ||
        layout === 'random_no_index' ||
        layout.startsWith('blocks_random_ids')
          ? `msg_${own}`
          : layout === 'by_conversation'
            ? `${conversation}/${own}`
            : `msg_${String(i).padStart(10, '0')}`;
      batchRows.push({
        id,
        conversationId: conversation,
        ordinal: i % perConversation,
        importId: 'imp_bench/0',
        state: 'visible',
        role: 'user',
        text: text(),
        hlc: `${Date.now()}`,
      });
    }
    // In a block layout a conversation's messages are one row (a batch holds whole conversations).
    const written: Record<string, unknown>[] = [];
    if (blocks) {
      // A conversation cut by the batch's edge is two blocks, keyed by conversation and first ordinal.
      const byConversation = new Map<unknown, Record<string, unknown>[]>();
      for (const row of batchRows) {
        const list = byConversation.get(row.conversationId) ?? [];
        list.push(row);
        byConversation.set(row.conversationId, list);
      }
      for (const [id, messages] of byConversation) {
        const key =
          layout === 'blocks_random_ids_sequential'
            ? `blk_${String(blockSeq++).padStart(10, '0')}`
            : `${String(id)}/${String(messages[0]!.ordinal)}`;
        const messageIds = messages.map((m) => m.id);
        written.push(
          layout === 'blocks_random_ids_json'
            ? { id: key, messageIds, messagesJson: JSON.stringify(messages) }
            : { id: key, messageIds, messages },
        );
      }
    } else written.push(...batchRows);
    makeMs += performance.now() - made;
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('messages', 'readwrite', { durability: 'relaxed' });
      const store = tx.objectStore('messages');
      for (const row of written) store.add(row);
      tx.oncomplete = () => resolve();
      tx.onerror = (event) => reject(new Error(String((event.target as IDBRequest).error)));
    });
    if ((n + batch) % step === 0) {
      const now = performance.now();
      rates.push(Math.round((step * 1000) / (now - stepStarted)));
      stepStarted = now;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { seconds, makeSeconds: makeMs / 1000, rates };
}

async function measure(layout: Layout, url: string): Promise<KeysRun> {
  const profile = await mkdtemp(join(tmpdir(), 'engram-bench-keys-'));
  const context = await chromium.launchPersistentContext(profile, chromiumLaunch);
  try {
    const page = await context.newPage();
    // tsx compiles with esbuild's keepNames, which wraps named functions in a `__name` helper the
    // page does not have: the function sent to the page needs it defined.
    await page.addInitScript({ content: 'window.__name = (fn) => fn;' });
    await page.goto(url);
    return await page.evaluate(writeRows, [layout, ROWS, STEP, BATCH, PER_CONVERSATION] as [Layout, number, number, number, number]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

export const bench: BenchModule = {
  name: 'store.idb_keys',
  async run(ctx) {
    if (!ctx.wants('store.idb_keys')) return [];
    const server = createServer((_, res) => res.end('<!doctype html><title>keys</title>')).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const out: FigureSamples[] = [];
    try {
      for (const layout of layoutsToRun(process.env.KEYS_LAYOUTS)) {
        const runs: KeysRun[] = [];
        for (let i = 0; i < heavyRuns(ctx.runs); i++) {
          runs.push(await measure(layout, url));
          ctx.log(
            `store.idb_keys ${layout} run ${i + 1}: ${runs[i]!.seconds.toFixed(1)} s (${runs[i]!.makeSeconds.toFixed(1)} s of it making the rows); messages/s per 50k: ${runs[i]!.rates.join(', ')}`,
          );
        }
        out.push({
          name: `store.idb_keys.400k.${layout}.seconds`,
          unit: 's',
          values: runs.map((r) => r.seconds),
          meta: {
            rows: ROWS,
            batch: BATCH,
            perConversation: PER_CONVERSATION,
            ratesPer50k: runs.map((r) => r.rates),
            makeSeconds: runs.map((r) => r.makeSeconds),
          },
        });
      }
    } finally {
      server.close();
    }
    return out;
  },
};
