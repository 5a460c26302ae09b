import { countMessages, emptyCounts, type ImportEvent, type ImportFormat, type ParsedConversation, type ParsedResource } from './parsed';
import { summaryOf } from './summary';

/**
 * Import events for conversations and resources that were parsed elsewhere (a bookmarklet capture,
 * a share), so they go through exactly the same storage path as a file: write-time safety, staging,
 * stable ids, publish and the reconciling report.
 */
export async function* parsedEvents(
  name: string,
  format: ImportFormat,
  conversations: readonly ParsedConversation[],
  resources: readonly ParsedResource[],
  bytes: number,
): AsyncGenerator<ImportEvent, void, undefined> {
  const messages = emptyCounts();
  for (const conversation of conversations) {
    countMessages(conversation.messages, messages);
    yield { type: 'conversation', conversation, entry: null };
  }
  for (const resource of resources) yield { type: 'resource', resource, entry: null };
  const result = {
    format,
    conversations: conversations.length,
    resources: resources.length,
    messages,
    skipped: [],
    unknownContentTypes: new Map<string, number>(),
    errors: [],
  };
  yield { type: 'done', summary: summaryOf(name, null, [{ name, result }], bytes) };
}
