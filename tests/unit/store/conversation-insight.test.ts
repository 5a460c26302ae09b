import { describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../../src/lib/core/records';
import { conversationInsight } from '../../../src/lib/store/views/conversation-insight';
import { writeSummary } from '../../../src/lib/store/summaries-repo';
import { openVault } from '../../../src/lib/store/vault';
import { conversation, note } from '../../factories/records';

const DAY = 86_400_000;
let seq = 0;
const unit = (conversationId: string, category: string, text: string, over: Partial<NoteRecord> = {}): NoteRecord =>
  note({ id: `note-${++seq}`, conversationId, category, text, sourceMessageIds: [`${conversationId}-m${seq}`], ...over });

describe('conversationInsight: the stored summary and the thread across sessions on the same subject', () => {
  it('maps the arc from the extracted and kept notes, leaves unrelated and discarded ones out', async () => {
    const vault = await openVault(`insight-${Date.now()}`);
    await vault.db.conversations.bulkPut([
      conversation({ id: 'c1', title: 'Vault storage', createdAt: DAY }),
      conversation({ id: 'c2', title: 'Vault storage again', createdAt: 5 * DAY }),
      conversation({ id: 'c3', title: 'Baking bread', createdAt: 2 * DAY }),
    ]);
    await vault.db.notes.bulkPut([
      unit('c1', 'Ideas', 'Store vault notes in SQLite through WASM.'),
      unit('c1', 'Open Questions', 'Should vault notes sync across devices?'),
      unit('c2', 'Decisions', 'Store vault notes in IndexedDB through Dexie.', { status: 'kept', tier: 'engram' }),
      unit('c2', 'Facts', 'The vault storage can grow to about ten gigabytes.'),
      unit('c2', 'Ideas', 'Keep vault notes on a floppy disk.', { status: 'discarded' }),
      unit('c3', 'Facts', 'Sourdough needs a lively starter.'),
    ]);
    await writeSummary(vault.db, {
      conversationId: 'c2',
      text: 'Chose Dexie for storage.',
      words: 4,
      method: 'extractive',
      llmId: null,
      at: 1,
    });

    const insight = await conversationInsight(vault, 'c2');
    expect(insight.summary?.text).toBe('Chose Dexie for storage.');
    expect(insight.thread?.sessionIds).toEqual(['c1', 'c2']);
    expect(insight.thread?.titles).toEqual({ c1: 'Vault storage', c2: 'Vault storage again' });
    const stages = insight.thread!.arc.map((e) => [e.stage, e.sessionId]);
    expect(stages).toContainEqual(['proposed', 'c1']);
    expect(stages).toContainEqual(['changed', 'c2']);
    expect(stages).toContainEqual(['decided', 'c2']);
    expect(stages).toContainEqual(['left-open', 'c1']);
    expect(insight.thread!.arc.map((e) => e.text)).not.toContain('Keep vault notes on a floppy disk.');

    expect(await conversationInsight(vault, 'c3')).toEqual({ summary: null, thread: null });
    vault.db.close();
  });
});
