/**
 * Nothing crosses vaults. Random interleavings of import, keep, edit, delete, merge, index work and
 * recall over two or three vaults open side by side in one process, as a browser holds them: one
 * shared index cache database (entries named per vault), one hnswlib runtime and file system, one
 * lock manager. Every vault's content carries a token of its own and shares its topic words with
 * the others, and every query names another vault's token as a lure: a row of another vault in any
 * read (recall, search, expand, decisions, the Inbox, the Notes and Conversations lists) fails it.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../../src/lib/core/records';
import { rememberedNote } from '../../../src/lib/core/agent/remembered-note';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { AgentTools } from '../../../src/lib/services/agent/agent-tools';
import { openInProcessIndex, type InProcessIndex } from '../../../src/lib/services/index/in-process';
import { NotesService } from '../../../src/lib/services/notes/notes-service';
import type { RecallService } from '../../../src/lib/services/recall/recall-service';
import { queueIndexing } from '../../../src/lib/store/index-queue';
import { runImport } from '../../../src/lib/store/importer';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { exportVault } from '../../../src/lib/store/vaultfile-export';
import { mergeVaultFile } from '../../../src/lib/store/vaultfile-merge';
import { VaultViews } from '../../../src/lib/store/views/vault-views';
import { readInbox } from '../../../src/lib/store/views/inbox-view';
import { allMessages } from '../../../src/lib/store/messages-store';

const TOKENS = ['amberquill', 'basaltwren', 'cobaltfern'];
const TOPICS = ['garden', 'billing', 'travel', 'piano'];
const CACHE_DB = `isolation-cache-${process.pid}`;

type Op =
  | { kind: 'import'; v: number; topic: number; n: number }
  | { kind: 'keep'; v: number; topic: number; n: number }
  | { kind: 'edit'; v: number; pick: number; topic: number }
  | { kind: 'delete'; v: number; pick: number }
  | { kind: 'snapshot'; v: number }
  | { kind: 'merge'; v: number }
  | { kind: 'work'; v: number; steps: number }
  | { kind: 'reopen'; v: number }
  | { kind: 'recall'; v: number; topic: number; lure: number };

function opArb(vaults: number): fc.Arbitrary<Op> {
  const v = fc.integer({ min: 0, max: vaults - 1 });
  const topic = fc.integer({ min: 0, max: TOPICS.length - 1 });
  const small = fc.integer({ min: 0, max: 1_000 });
  return fc.oneof(
    fc.record({ kind: fc.constant('import' as const), v, topic, n: small }),
    fc.record({ kind: fc.constant('keep' as const), v, topic, n: small }),
    fc.record({ kind: fc.constant('edit' as const), v, pick: small, topic }),
    fc.record({ kind: fc.constant('delete' as const), v, pick: small }),
    fc.record({ kind: fc.constant('snapshot' as const), v }),
    fc.record({ kind: fc.constant('merge' as const), v }),
    fc.record({ kind: fc.constant('work' as const), v, steps: fc.integer({ min: 1, max: 4 }) }),
    // The vault's index closed and opened again from what it saved (switching back to it, a restarted worker).
    fc.record({ kind: fc.constant('reopen' as const), v }),
    fc.record({ kind: fc.constant('recall' as const), v, topic, lure: fc.integer({ min: 0, max: TOKENS.length - 1 }) }),
  );
}

interface Open {
  name: string;
  token: string;
  vault: Vault;
  index: InProcessIndex;
  recaller: RecallService;
  tools: AgentTools;
  notes: NotesService;
  views: VaultViews;
  snapshot: Uint8Array | null;
}

let run = 0;
const opened: Open[] = [];

afterAll(async () => {
  for (const o of opened) {
    o.index.close();
    o.vault.db.close();
  }
});

async function openAll(count: number): Promise<Open[]> {
  run += 1;
  const list: Open[] = [];
  for (let i = 0; i < count; i++) {
    const vault = await openVault(`isolation-${process.pid}-${run}-${i}`);
    const o = {
      name: `V${i}`,
      token: TOKENS[i]!,
      vault,
      notes: new NotesService(async () => vault),
      views: new VaultViews(vault),
      snapshot: null,
    } as Open;
    await openIndex(o);
    o.tools = new AgentTools(
      {
        names: () => [o.name],
        get: async () => ({ name: o.name, vault, recaller: o.recaller }),
        remember: async () => ({ already: false, where: 'nowhere (test)' }),
      },
      { writeBack: false },
    );
    list.push(o);
    opened.push(o);
  }
  return list;
}

/** The vault's index, opened from what the shared cache holds for it (nothing is rebuilt unless the saved state is refused). */
async function openIndex(o: Open): Promise<void> {
  o.index = await openInProcessIndex(o.vault, { rebuild: false, cacheDatabase: CACHE_DB });
  o.recaller = o.index.recaller({ now: () => 1_800_000_000_000 });
}

const chat = (token: string, topic: string, n: number) =>
  `User: Tell me about ${topic} plans ${token} number ${n}.\n\nAssistant: For ${topic}, ${token} keeps note ${n} of the ${topic} plans.`;

async function doImport(o: Open, topic: string, n: number) {
  const bytes = new TextEncoder().encode(chat(o.token, topic, n));
  await runImport(o.vault, [{ name: `chat-${n}.txt`, size: bytes.length, bytes: new Blob([bytes]).stream() }], {
    onPublished: queueIndexing(o.vault),
  });
}

async function keptNotes(o: Open): Promise<NoteRecord[]> {
  return (await o.vault.db.notes.where('status').equals('kept').toArray()).sort((a, b) => a.id.localeCompare(b.id));
}

/** Every string a read returned must name this vault's token and no other vault's. */
function assertOwn(o: Open, all: Open[], texts: readonly string[], what: string) {
  for (const text of texts) {
    for (const other of all) {
      if (other !== o) expect(text, `${what} of ${o.token} returned a row of ${other.token}`).not.toContain(other.token);
    }
    expect(text, `${what} of ${o.token}`).toContain(o.token);
  }
}

async function checkReads(o: Open, all: Open[], topic: string, lure: string) {
  const prompt = `${topic} plans ${lure}`;
  const answer = await o.recaller.answer({ prompt }, { writeBack: false });
  expect(answer.ok).toBe(true);
  if (!answer.ok) return;
  assertOwn(
    o,
    all,
    answer.value.result.items.map((c) => c.record.text),
    'recall',
  );
  assertOwn(
    o,
    all,
    answer.value.result.dropped.map((d) => d.candidate.record.text),
    'recall (dropped)',
  );
  const search = await o.tools.call('search', { query: prompt, limit: 20 });
  expect(search.ok).toBe(true);
  if (search.ok) {
    const items = (search.value as { items: { id: string; snippet: string }[] }).items;
    assertOwn(
      o,
      all,
      items.map((i) => i.snippet),
      'search',
    );
    for (const item of items.slice(0, 2)) {
      const expanded = await o.tools.call('expand', { id: item.id, radius: 3 });
      if (expanded.ok)
        assertOwn(
          o,
          all,
          (expanded.value as { turns: { text: string }[] }).turns.map((t) => t.text),
          'expand',
        );
    }
  }
  const decisions = await o.tools.call('list_decisions', { topic });
  if (decisions.ok)
    assertOwn(
      o,
      all,
      (decisions.value as { decisions: { text: string }[] }).decisions.map((d) => d.text),
      'list_decisions',
    );
  assertOwn(
    o,
    all,
    (await o.views.notes()).map((n) => n.text),
    'the Notes list',
  );
  assertOwn(
    o,
    all,
    (await readInbox(o.vault)).flatMap((g) => g.items.map((i) => i.note.text)),
    'the Inbox',
  );
  assertOwn(
    o,
    all,
    (await o.views.conversationBrowse({}, 'newest', 100)).rows.map((c) => c.title),
    'the Conversations list',
  );
}

async function apply(op: Op, all: Open[]) {
  const o = all[op.v]!;
  const now = 1_750_000_000_000 + run * 1000;
  switch (op.kind) {
    case 'import':
      return doImport(o, TOPICS[op.topic]!, op.n);
    case 'keep': {
      const candidate = await rememberedNote({
        text: `We chose ${TOPICS[op.topic]} option ${op.n} for ${o.token}.`,
        category: 'Decisions',
        now,
      });
      await o.vault.notes.save(candidate, { actor: 'extractor', action: 'extract', why: 'test', at: now });
      await o.notes.keep([{ id: candidate.id }]);
      return;
    }
    case 'edit': {
      const kept = await keptNotes(o);
      const target = kept[op.pick % Math.max(1, kept.length)];
      if (!target) return;
      const text = `${target.text.replace(/\.$/u, '')}, revised for ${TOPICS[op.topic]} (${o.token}).`;
      const after = { ...target, text, contentHash: await contentHash(text), updatedAt: now };
      await o.notes.applyChanges([{ recordId: target.id, action: 'edit', why: 'test edit', before: target, after }], 'user');
      return;
    }
    case 'delete': {
      const kept = await keptNotes(o);
      const target = kept[op.pick % Math.max(1, kept.length)];
      if (target) await o.vault.deleteRecords('notes', [target.id]);
      return;
    }
    case 'snapshot': {
      const exported = await exportVault(o.vault, { vectors: false, appVersion: 'test' });
      o.snapshot = new Uint8Array(await new Response(exported.stream).arrayBuffer());
      return;
    }
    case 'merge': {
      if (!o.snapshot) return;
      const bytes = o.snapshot;
      await mergeVaultFile(o.vault, new Blob([bytes as BlobPart]).stream());
      return;
    }
    case 'reopen':
      o.index.close();
      return openIndex(o);
    case 'work':
      for (let i = 0; i < op.steps; i++) await o.index.runJobs();
      return;
    case 'recall':
      await o.index.runJobs();
      return checkReads(o, all, TOPICS[op.topic]!, TOKENS[op.lure]!);
  }
}

describe('vaults never leak into each other (property)', () => {
  it('every row any read returns belongs to the vault it was asked of', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 2, max: 3 })
          .chain((count) => fc.tuple(fc.constant(count), fc.array(opArb(count), { minLength: 4, maxLength: 14 }))),
        async ([count, ops]) => {
          const all = await openAll(count);
          // Every vault holds something, so each read has rows to get wrong.
          for (const [i, o] of all.entries()) await doImport(o, TOPICS[i % TOPICS.length]!, 0);
          for (const op of ops) await apply(op, all);
          for (const [i, o] of all.entries()) {
            await o.index.runJobs();
            for (const topic of TOPICS) await checkReads(o, all, topic, TOKENS[(i + 1) % count]!);
            // And what each vault stores is its own, down to the index's vectors.
            const texts = [
              ...(await allMessages(o.vault.db)).map((m) => m.text),
              ...(await o.vault.db.chunks.toArray()).map((c) => c.text),
              ...(await o.vault.db.notes.toArray()).map((n) => n.text),
            ];
            assertOwn(o, all, texts, 'the stored rows');
            const ids = new Set([
              ...(await o.vault.db.chunks.toCollection().primaryKeys()),
              ...(await o.vault.db.notes.toCollection().primaryKeys()),
            ]);
            for (const vector of await o.vault.db.vectors.toArray())
              expect(ids.has(vector.recordId), `vector ${vector.recordId}`).toBe(true);
          }
        },
      ),
      { numRuns: 8, seed: 15_015, endOnFailure: true },
    );
  }, 600_000);
});
