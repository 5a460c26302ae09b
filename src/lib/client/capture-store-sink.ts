import { captureHlc, planCapture, prepareCapture, type CapturePlan, type PreparedCapture } from '../core/capture/plan';
import type { ConversationRecord, MessageRecord } from '../core/records';
import type { CapturePayload } from '../core/capture/payload';
import { newId } from '../core/ids';
import { runTx } from '../store/transaction';
import type { Vault } from '../store/vault';
import type { CapturePreview, CaptureResult, CaptureSink } from './capture';

/**
 * The interim capture sink: reads what the vault holds with the store's repositories and writes a
 * capture's conversation, its new messages and an import row (with its report) in one store
 * transaction (`runTx`). Inside that transaction it uses the tables directly, as the repositories
 * do inside theirs: a repository call nested in a transaction would await its own timeout race,
 * and a Dexie transaction that awaits anything but IndexedDB commits early.
 *
 * It does NOT run the importer's write-time safety (secret redaction, hidden-character stripping,
 * injection flags): that belongs to the importer, which replaces this file (see capture.ts).
 */
export interface SinkClock {
  now(): number;
  newId(prefix: string): string;
}

const systemClock: SinkClock = { now: () => Date.now(), newId };

function planWith(prepared: PreparedCapture, importId: string, now: number, existing: [ConversationRecord | undefined, MessageRecord[]]) {
  const [existingConversation, existingMessages] = existing;
  return planCapture(prepared, { now, importId, hlc: captureHlc(now), existingConversation, existingMessages });
}

function toPreview(plan: CapturePlan): CapturePreview {
  return {
    conversationId: plan.conversation.id,
    title: plan.conversation.title,
    messages: plan.messages.map(({ record, isNew }) => ({ ordinal: record.ordinal, role: record.role, text: record.text, isNew })),
    newCount: plan.newCount,
    existingCount: plan.existingCount,
  };
}

export function createStoreSink(openVault: () => Promise<Vault>, clock: SinkClock = systemClock): CaptureSink {
  return {
    async preview(payload: CapturePayload): Promise<CapturePreview> {
      const [vault, prepared] = await Promise.all([openVault(), prepareCapture(payload)]);
      const id = prepared.conversationId;
      const existing = await Promise.all([vault.conversations.get(id), vault.conversations.messages(id)]);
      return toPreview(planWith(prepared, 'preview', clock.now(), existing));
    },

    async save(payload: CapturePayload): Promise<CaptureResult> {
      // Hashing (WebCrypto) happens before the transaction: a transaction that awaits anything
      // but IndexedDB commits early.
      const [vault, prepared] = await Promise.all([openVault(), prepareCapture(payload)]);
      const now = clock.now();
      const importId = clock.newId('capture');
      const { db } = vault;
      return runTx(
        db,
        'rw',
        [db.conversations, db.messages, db.imports],
        async (): Promise<CaptureResult> => {
          const id = prepared.conversationId;
          const existing: [ConversationRecord | undefined, MessageRecord[]] = [
            await db.conversations.get(id),
            await db.messages.where('[conversationId+ordinal]').between([id, -Infinity], [id, Infinity]).toArray(),
          ];
          const planned = planWith(prepared, importId, now, existing);
          const added = planned.messages.filter((m) => m.isNew).map((m) => m.record);
          const result = { conversationId: planned.conversation.id, added: added.length, unchanged: planned.existingCount };
          if (added.length === 0 && planned.superseded.length === 0) return { ...result, importId: null };
          await db.conversations.put(planned.conversation);
          await db.messages.bulkPut([...planned.superseded, ...added]);
          await db.imports.put({
            id: importId,
            startedAt: now,
            finishedAt: now,
            status: 'done',
            label: `Capture: ${planned.conversation.title}`,
            report: {
              kind: 'capture',
              source: payload.source,
              method: payload.method,
              url: payload.url,
              found: planned.messages.length,
              stored: added.length,
              skipped: planned.existingCount,
              skippedWhy: 'already in the vault',
              leftVisiblePath: planned.superseded.length,
            },
          });
          return { ...result, importId };
        },
        { label: 'saving a capture' },
      );
    },
  };
}
