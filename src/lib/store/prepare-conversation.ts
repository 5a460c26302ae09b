/**
 * A parsed conversation made ready to store: every message through write-time safety (secrets
 * redacted, hidden characters stripped, injection flagged) and hashed from its safe text. The
 * importer's most expensive step after parsing (issue 19: about a third of a heavy import's
 * thread), and a pure function of the parsed conversation, so it can run in a worker of its own
 * (`workerPreparer`, workers/prepare.worker.ts) while the importer's thread parses and writes.
 */
import type { ParsedConversation } from '../core/import/parsed';
import { applyWriteSafety, safeField, type WriteSafetyResult } from '../core/safety/write-safety';
import { contentHash, sha256Hex } from '../core/text/normalize';
import type { IncomingConversation, IncomingMessage } from './import-session';

/** What the import report counts of one text's safety result (its text aside). */
export type SafetyTally = Pick<WriteSafetyResult, 'redactions' | 'flags' | 'hiddenRemoved'>;

/** A conversation ready to store, and the safety tallies of its messages and title for the report. */
export interface PreparedIncoming {
  incoming: IncomingConversation;
  tallies: SafetyTally[];
}

/**
 * An id from an export that holds a secret (a key pasted where an id belongs) is stored as a
 * hash of itself: the same id always maps to the same hash, so re-imports still meet, and the
 * secret is not kept.
 */
export async function safeExternalId(id: string): Promise<string> {
  return safeField(id) === id ? id : `sha256:${await sha256Hex(id)}`;
}

/** `parsed` through write-time safety and hashed; `observe` sees each message's and the title's safety result. */
export async function prepareConversation(
  parsed: ParsedConversation,
  observe: (result: WriteSafetyResult) => void = () => undefined,
): Promise<IncomingConversation> {
  const messages: IncomingMessage[] = await Promise.all(
    parsed.messages.map(async (m) => {
      const safe = applyWriteSafety(m.text);
      observe(safe);
      const speaker = m.speaker ? safeField(m.speaker).trim() : '';
      return {
        externalId: await safeExternalId(m.externalId),
        role: m.role,
        ...(speaker ? { speaker } : {}),
        text: safe.text,
        contentHash: await contentHash(safe.text),
        createdAt: m.createdAt,
        parentExternalId: m.parentExternalId === null ? null : await safeExternalId(m.parentExternalId),
        onVisiblePath: m.onVisiblePath,
        hidden: m.hidden,
        flags: safe.flags,
      };
    }),
  );
  const title = applyWriteSafety(parsed.title);
  observe(title);
  return {
    source: parsed.source,
    externalId: await safeExternalId(parsed.externalId),
    title: title.text,
    createdAt: parsed.createdAt,
    updatedAt: parsed.updatedAt,
    messages,
  };
}

/** `prepareConversation` with the tallies collected (what a worker sends back: no text twice). */
export async function prepareWithTallies(parsed: ParsedConversation): Promise<PreparedIncoming> {
  const tallies: SafetyTally[] = [];
  const incoming = await prepareConversation(parsed, ({ redactions, flags, hiddenRemoved }) =>
    tallies.push({ redactions, flags, hiddenRemoved }),
  );
  return { incoming, tallies };
}

/** Prepares conversations for the importer, in the order asked. */
export interface Preparer {
  prepare(parsed: ParsedConversation): Promise<PreparedIncoming>;
  /** Ends the preparer (a worker is terminated); further calls prepare in this thread. */
  close(): void;
}

/** Prepares in the calling thread (Node, tests, a small import). */
export const localPreparer: Preparer = {
  prepare: prepareWithTallies,
  close: () => undefined,
};

/** The API of workers/prepare.worker.ts. */
export interface PrepareApi {
  prepare(parsed: ParsedConversation): Promise<PreparedIncoming>;
}
