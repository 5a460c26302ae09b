import type { CapturePreview, CaptureResult } from '../../core/api/import';
import { captureToParsed } from '../../core/capture/to-parsed';
import type { CapturePayload } from '../../core/capture/payload';
import { parsedEvents } from '../../core/import/parsed-events';
import { applyWriteSafety } from '../../core/safety/write-safety';
import { conversationRecordId, messageRecordId, resourceRecordId } from '../../store/import-session';
import { queueAfterPublish } from '../../store/extract-queue';
import { prepareConversation, runImport, type ImportOptions } from '../../store/importer';
import type { Vault } from '../../store/vault';

export interface CaptureSink {
  preview(payload: CapturePayload): Promise<CapturePreview>;
  save(payload: CapturePayload): Promise<CaptureResult>;
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
          title: parsed.resource.title,
          messages: [{ ordinal: 0, role: 'user', text, isNew: !exists }],
          newCount: exists ? 0 : 1,
          existingCount: exists ? 1 : 0,
        };
      }
      const incoming = await prepareConversation(parsed.conversation);
      const conversationId = await conversationRecordId(incoming.source, incoming.externalId);
      const stored = new Set((await vault.conversations.messages(conversationId)).map((m) => m.id));
      const ids = await Promise.all(incoming.messages.map((m) => messageRecordId(conversationId, m.externalId)));
      const messages = incoming.messages.map((m, ordinal) => ({ ordinal, role: m.role, text: m.text, isNew: !stored.has(ids[ordinal]!) }));
      const newCount = messages.filter((m) => m.isNew).length;
      return { conversationId, title: incoming.title, messages, newCount, existingCount: messages.length - newCount };
    },

    async save(payload: CapturePayload): Promise<CaptureResult> {
      const vault = await openVault();
      const parsed = captureToParsed(payload);
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
