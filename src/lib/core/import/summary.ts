/** The per-file summary the report is built from, and event wrapping shared by plain files and ZIPs. */
import type { Emitted, FileResult } from './file-parser';
import { addCounts, emptyCounts, type EntrySummary, type ImportEvent, type ParseSummary } from './parsed';

export function summaryOf(
  name: string,
  archive: ParseSummary['archive'],
  results: readonly { name: string; result: FileResult }[],
  bytesRead: number,
): ParseSummary {
  const types = new Map<string, number>();
  const entries: EntrySummary[] = [];
  const messages = emptyCounts();
  let conversations = 0;
  let resources = 0;
  for (const { name: entry, result } of results) {
    for (const [type, n] of result.unknownContentTypes) types.set(type, (types.get(type) ?? 0) + n);
    entries.push({
      name: entry,
      format: result.format,
      conversations: result.conversations,
      resources: result.resources,
      messages: { ...result.messages },
    });
    addCounts(messages, result.messages);
    conversations += result.conversations;
    resources += result.resources;
  }
  return {
    name,
    format: results.find((r) => r.result.format !== null)?.result.format ?? null,
    archive,
    entries,
    conversations,
    resources,
    messages,
    skipped: results.flatMap((r) => r.result.skipped),
    unknownContentTypes: [...types]
      .map(([type, count]) => ({ type, count }))
      .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type)),
    errors: results.flatMap((r) => r.result.errors),
    notes: [],
    bytesRead,
  };
}

export function toEvent(e: Emitted, entry: string | null): ImportEvent {
  return e.type === 'conversation'
    ? { type: 'conversation', conversation: e.conversation, entry }
    : { type: 'resource', resource: e.resource, entry };
}
