import {
  changesExisting,
  type CapturePreview,
  type CaptureResult,
  type ExistingConversationChange,
  type SaveCaptureOptions,
} from '../../core/api/import';
import { captureToParsed } from '../../core/capture/to-parsed';
import type { CapturePayload } from '../../core/capture/payload';
import { fail } from '../../core/errors';
import { parsedEvents } from '../../core/import/parsed-events';
import { applyWriteSafety, safeField } from '../../core/safety/write-safety';
import { conversationRecordId, messageRecordId, resourceRecordId, type IncomingConversation } from '../../store/import-session';
import { queueAfterPublish } from '../../store/extract-queue';
import { prepareConversation, runImport, type ImportOptions } from '../../store/importer';
import type { Vault } from '../../store/vault';

export interface CaptureSink {
  preview(payload: CapturePayload): Promise<CapturePreview>;
  save(payload: CapturePayload, options?: SaveCaptureOptions): Promise<CaptureResult>;
}

/**
 * What storing `incoming` would do to the conversation `conversationId` when the vault holds it
 * already, by the importer's own rules (store/import-session.ts `stageConversation` and `publish`):
 * a message whose id the conversation lacks is added; a stored one at another position or branch
 * is moved; the title changes to the capture's when anything is added. Null when there is no such
 * conversation.
 */
async function existingChange(
  vault: Vault,
  incoming: IncomingConversation,
  conversationId: string,
): Promise<ExistingConversationChange | null> {
  const row = await vault.conversations.get(conversationId);
  if (!row) return null;
  const known = new Map(
    (await vault.conversations.messages(conversationId)).map((m) => [m.id, { ordinal: m.ordinal, onVisiblePath: m.branch.onVisiblePath }]),
  );
  const ids = await Promise.all(incoming.messages.map((m) => messageRecordId(conversationId, m.externalId)));
  let added = 0;
  let moved = 0;
  incoming.messages.forEach((m, ordinal) => {
    const stored = known.get(ids[ordinal]!);
    if (stored) {
      if (stored.ordinal !== ordinal || stored.onVisiblePath !== m.onVisiblePath) moved++;
      return;
    }
    known.set(ids[ordinal]!, { ordinal, onVisiblePath: m.onVisiblePath });
    added++;
  });
  const title = added > 0 ? incoming.title || row.title : row.title;
  const storedBy = await vault.imports.get(row.importId.split('/')[0]!);
  return {
    conversationId,
    title: row.title,
    source: row.source,
    messageCount: row.messageCount,
    storedBy: storedBy ? { label: storedBy.label, at: storedBy.startedAt } : null,
    added,
    renamedTo: title !== row.title ? title : null,
    moved,
  };
}

/**
 * The capture sink, run by the import worker: a capture goes through the importer's own path (write-time safety, stable ids,
 * staged rows published in one step, a reconciling report in `imports`), so a captured
 * conversation and an imported one are the same kind of record. The preview shows the text as it
 * will be stored (after redaction) and which messages the vault already holds.
 */
export function createImportSink(openVault: () => Promise<Vault>, options: Pick<ImportOptions, 'onStarted'> = {}): CaptureSink {
  return {
    async preview(payload: CapturePayload): Promise<CapturePreview> {
      const vault = await openVault();
      const parsed = captureToParsed(payload);
      if (parsed.kind === 'resource') {
        const id = await resourceRecordId(parsed.resource.externalId);
        const exists = Boolean(await vault.notes.get(id));
        const text = applyWriteSafety(parsed.resource.text).text;
        return {
          conversationId: id,
          title: safeField(parsed.resource.title),
          messages: [{ ordinal: 0, role: 'user', text, isNew: !exists }],
          newCount: exists ? 0 : 1,
          existingCount: exists ? 1 : 0,
          // A resource already stored is left as it is (never renamed or appended to).
          existing: null,
        };
      }
      const incoming = await prepareConversation(parsed.conversation);
      const conversationId = await conversationRecordId(incoming.source, incoming.externalId);
      const stored = new Set((await vault.conversations.messages(conversationId)).map((m) => m.id));
      const ids = await Promise.all(incoming.messages.map((m) => messageRecordId(conversationId, m.externalId)));
      const messages = incoming.messages.map((m, ordinal) => ({ ordinal, role: m.role, text: m.text, isNew: !stored.has(ids[ordinal]!) }));
      const newCount = messages.filter((m) => m.isNew).length;
      const existing = await existingChange(vault, incoming, conversationId);
      return { conversationId, title: incoming.title, messages, newCount, existingCount: messages.length - newCount, existing };
    },

    async save(payload: CapturePayload, saveOptions: SaveCaptureOptions = {}): Promise<CaptureResult> {
      const vault = await openVault();
      const parsed = captureToParsed(payload);
      if (parsed.kind === 'conversation') {
        // Checked again here, not only on the page: whoever calls, an existing conversation is
        // changed only when the caller names it (the person confirmed what the preview showed).
        const incoming = await prepareConversation(parsed.conversation);
        const change = await existingChange(vault, incoming, await conversationRecordId(incoming.source, incoming.externalId));
        if (changesExisting(change) && saveOptions.changeExisting !== change.conversationId) {
          fail(
            'capture/unconfirmed',
            `This capture would change “${change.title}”, a conversation already in your vault (${describeChange(change)}), and that was not confirmed.`,
            { conversationId: change.conversationId },
          );
        }
      }
      const name = `Capture from ${payload.source}: ${payload.title || payload.url || 'untitled'}`;
      const conversations = parsed.kind === 'conversation' ? [parsed.conversation] : [];
      const resources = parsed.kind === 'resource' ? [parsed.resource] : [];
      const report = await runImport(vault, [{ name, size: null, events: parsedEvents(name, 'transcript', conversations, resources, 0) }], {
        ...options,
        onPublished: queueAfterPublish(vault),
      });
      const file = report.files[0]!;
      const failure = file.errors[0];
      if (failure) throw failure;
      const conversationId =
        parsed.kind === 'conversation'
          ? await conversationRecordId(parsed.conversation.source, parsed.conversation.externalId)
          : await resourceRecordId(parsed.resource.externalId);
      const added = parsed.kind === 'conversation' ? file.messages.stored : file.resources.stored;
      const unchanged = parsed.kind === 'conversation' ? file.messages.existing : file.resources.existing;
      return { conversationId, importId: added > 0 ? report.id : null, added, unchanged };
    },
  };
}

/** "adds 2 messages, renames it to “…”" */
export function describeChange(change: ExistingConversationChange): string {
  const parts: string[] = [];
  if (change.added > 0) parts.push(`adds ${change.added} message${change.added === 1 ? '' : 's'}`);
  if (change.renamedTo !== null) parts.push(`renames it to “${change.renamedTo}”`);
  if (change.moved > 0) parts.push(`moves ${change.moved} of its message${change.moved === 1 ? '' : 's'}`);
  return parts.join(', ');
}
