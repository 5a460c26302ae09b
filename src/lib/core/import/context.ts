/**
 * What every per-source parser shares: the context it is called with, the result it returns, and
 * the final check that makes its output keep the contract in parsed.ts whatever the input was.
 */
import type { Role } from '../records';
import type { ParsedConversation, ParsedMessage, SkippedItem } from './parsed';
import { clip } from './read';
import { uniqueId } from './stable-id';

export interface ParseContext {
  /** Position of the conversation in its file (0-based). */
  index: number;
  /** Reports a content type the parser does not know (its content is still kept). */
  unknownType(type: string): void;
}

export type ElementResult = { conversation: ParsedConversation } | { skipped: SkippedItem };

/** A parser for one conversation-shaped JSON value of one format. */
export type ElementParser = (value: unknown, ctx: ParseContext) => ElementResult;

export function skip(what: string, reason: string): ElementResult {
  return { skipped: { what, reason } };
}

/** A label for a conversation in skip reasons: its title, else its position. */
export function label(kind: string, title: string | undefined, index: number): string {
  return title ? `${kind} "${clip(title)}"` : `${kind} #${index + 1}`;
}

const ROLE_ALIASES = new Map<string, Role>([
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['model', 'assistant'],
  ['ai', 'assistant'],
  ['bot', 'assistant'],
  ['grok', 'assistant'],
  ['system', 'system'],
  ['developer', 'system'],
  ['tool', 'tool'],
  ['function', 'tool'],
]);

/** Maps a source's role name; unknown names become `tool` and are noted (never dropped). */
export function roleOf(name: unknown, notes: Set<string>): Role {
  const key = typeof name === 'string' ? name.trim().toLowerCase() : '';
  const role = ROLE_ALIASES.get(key);
  if (role) return role;
  notes.add(`unknown author role "${clip(String(name), 30)}" kept as "tool"`);
  return 'tool';
}

/**
 * Enforces the output contract: unique message ids, parents that exist in the conversation,
 * visible messages first. Repairs are noted, never silent.
 */
export function finishConversation(conv: ParsedConversation, extraNotes: Iterable<string> = []): ParsedConversation {
  const notes = [...conv.notes, ...extraNotes];
  const seen = new Set<string>();
  const messages: ParsedMessage[] = conv.messages.map((m) => {
    const id = uniqueId(m.externalId, seen);
    if (id !== m.externalId) {
      notes.push(`message id "${clip(m.externalId, 40)}" occurs more than once; later copies renamed`);
    }
    return id === m.externalId ? m : { ...m, externalId: id };
  });
  let dangling = 0;
  for (const m of messages) {
    if (m.parentExternalId !== null && !seen.has(m.parentExternalId)) {
      m.parentExternalId = null;
      dangling++;
    }
  }
  if (dangling > 0) notes.push(`${dangling} message(s) named a parent that is not a message; parent cleared`);
  const visible = messages.filter((m) => m.onVisiblePath);
  const others = messages.filter((m) => !m.onVisiblePath);
  return { ...conv, messages: [...visible, ...others], notes: [...new Set(notes)] };
}
