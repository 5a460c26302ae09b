/**
 * The output of the import parsers: plain data, structured-clone safe, no store concepts. The
 * store turns it into rows; the report counts come from it.
 *
 * Contract every parser keeps:
 * - Every conversation and message has a stable `externalId`. When the format has none it is
 *   derived from content (see stable-id.ts), never from the file name or from randomness, so the
 *   same archive imported twice (or on two devices) yields the same ids.
 * - `messages` lists the visible thread first, root to leaf, then the messages of other
 *   branches in a deterministic depth-first order.
 * - Message ids are unique within a conversation; a `parentExternalId` names another message of
 *   the same conversation or is null.
 * - Text is the message as written (no trimming or collapsing); non-text parts become short typed
 *   placeholders such as `[image: file-abc]`.
 */
import type { VaultError } from '../errors';
import type { Role, Source } from '../records';

/** What a file turned out to be, decided by its content. */
export type ImportFormat =
  | 'chatgpt'
  | 'claude'
  | 'gemini-activity'
  | 'aistudio'
  | 'grok'
  | 'deepseek'
  | 'openwebui'
  | 'transcript'
  /** Pasted text that is not a chat: becomes one resource. */
  | 'text';

export interface ParsedMessage {
  externalId: string;
  role: Role;
  text: string;
  /** The speaker's name as the source writes it ("Caroline", "Claude 3.5 Sonnet"), when it names one. */
  speaker?: string;
  /** Milliseconds since the epoch, or null when the export has no usable time. */
  createdAt: number | null;
  /** The nearest ancestor that is itself a message (tree nodes without a message are skipped). */
  parentExternalId: string | null;
  /** True on the thread the person saw last (root to the current leaf). */
  onVisiblePath: boolean;
  /**
   * Kept but not part of the conversation as shown: system prompts, custom instructions,
   * nodes the export marks hidden, and model reasoning ("thoughts"), which is kept losslessly
   * but must not be mined as if the person or the answer had said it.
   */
  hidden: boolean;
  /** The source's own name for the content kind ('text', 'code', 'thoughts', 'reasoning', ...). */
  contentType?: string;
}

export interface ParsedConversation {
  source: Source;
  externalId: string;
  title: string;
  createdAt: number | null;
  updatedAt: number | null;
  messages: ParsedMessage[];
  /** Human-readable remarks on what was odd (missing current node, unknown roles, ...). */
  notes: string[];
}

/** Pasted or dropped text that is not a chat. Becomes a resource-tier note downstream. */
export interface ParsedResource {
  externalId: string;
  title: string;
  text: string;
  /**
   * Provenance tier: 'web' for a captured web page or shared link (someone else's text, 0.1 in
   * scoring); absent: 'resource', a document the person added.
   */
  tier?: 'resource' | 'web';
}

/** Something found and deliberately not imported, with the reason a person can read. */
export interface SkippedItem {
  what: string;
  reason: string;
  /** 'entry' for an archive entry that was not read; otherwise a conversation-level item. */
  kind?: 'conversation' | 'entry';
}

export interface ContentTypeCount {
  type: string;
  count: number;
}

/** Messages split into disjoint buckets: visible + otherBranches + hidden = all messages. */
export interface MessageCounts {
  /** On the visible thread and not hidden: what the report calls "messages". */
  visible: number;
  /** Not hidden, on another branch (edits, regenerations). */
  otherBranches: number;
  /** Hidden, wherever it sits in the tree. */
  hidden: number;
}

/** One file (or one ZIP entry) after parsing. */
export interface EntrySummary {
  /** The ZIP entry name or the file label: display only, never used as a path or key. */
  name: string;
  format: ImportFormat | null;
  conversations: number;
  resources: number;
  messages: MessageCounts;
}

export interface ParseSummary {
  /** Display label of the input (file name), never used as a path or key. */
  name: string;
  /** The format of the conversations read (for a ZIP: of its chat entries). */
  format: ImportFormat | null;
  archive: 'zip' | null;
  /** For a ZIP, one row per entry that was read; for a plain file, one row. */
  entries: EntrySummary[];
  conversations: number;
  resources: number;
  messages: MessageCounts;
  skipped: SkippedItem[];
  /** Content types the parser did not know; their content was kept as a placeholder or raw text. */
  unknownContentTypes: ContentTypeCount[];
  /**
   * Errors that make the whole file fail (truncated, wrong encoding, unsafe archive, ...). When
   * non-empty the importer must discard everything this file yielded: nothing of a failed file is
   * stored. Per-conversation problems are `skipped`, not errors.
   */
  errors: VaultError[];
  /** Remarks on the file as a whole (shards read, entries not read). */
  notes: string[];
  bytesRead: number;
}

/** What the streaming parser yields, in order; `done` is always last. */
export type ImportEvent =
  | { type: 'conversation'; conversation: ParsedConversation; entry: string | null }
  | { type: 'resource'; resource: ParsedResource; entry: string | null }
  | { type: 'progress'; bytesRead: number; bytesTotal: number | null }
  | { type: 'done'; summary: ParseSummary };

/** Everything from one file, collected (for small inputs, tests and the CLI). */
export interface ParsedFile {
  summary: ParseSummary;
  conversations: ParsedConversation[];
  resources: ParsedResource[];
}

const SOURCE_OF: Record<ImportFormat, Source> = {
  chatgpt: 'chatgpt',
  claude: 'claude',
  'gemini-activity': 'gemini',
  aistudio: 'aistudio',
  grok: 'grok',
  deepseek: 'deepseek',
  openwebui: 'openwebui',
  transcript: 'transcript',
  text: 'paste',
};

export function sourceOf(format: ImportFormat): Source {
  return SOURCE_OF[format];
}

export function emptyCounts(): MessageCounts {
  return { visible: 0, otherBranches: 0, hidden: 0 };
}

/** Sorts each message into exactly one bucket (hidden wins over branch). */
export function countMessages(messages: readonly ParsedMessage[], into: MessageCounts = emptyCounts()): MessageCounts {
  for (const m of messages) {
    if (m.hidden) into.hidden++;
    else if (m.onVisiblePath) into.visible++;
    else into.otherBranches++;
  }
  return into;
}

export function addCounts(into: MessageCounts, more: MessageCounts): MessageCounts {
  into.visible += more.visible;
  into.otherBranches += more.otherBranches;
  into.hidden += more.hidden;
  return into;
}
