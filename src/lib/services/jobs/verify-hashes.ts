import { contentHash } from '../../core/text/normalize';
import type { JobHandler } from '../../store/job-runner';
import type { Vault } from '../../store/vault';
import { countStoredMessages, messagePage, type MessageScanPosition } from '../../store/messages-store';

export const VERIFY_HASHES = 'vault.verify-hashes';

interface Cursor {
  /** Where the scan stands (null: not started). */
  position: MessageScanPosition | null;
  /** A cursor saved before message blocks: the last message row checked. */
  afterId?: string | null;
  checked: number;
  mismatched: string[];
  total: number | null;
}

const PAGE = 500;

/**
 * Integrity check: recomputes the content hash of every stored message and lists those whose
 * text no longer matches (disk damage, a bad migration, a hand-edited vault file). Resumable: the
 * cursor is where the scan of every message stands (`messagePage`: message rows by id, then blocks).
 */
export function verifyHashesHandler(vault: Vault): JobHandler {
  return async (ctx) => {
    const start = (ctx.job.payload ?? {}) as Partial<Cursor>;
    let cursor: Cursor = {
      position: start.position ?? (start.afterId ? { phase: 'rows', after: start.afterId } : null),
      checked: start.checked ?? 0,
      mismatched: start.mismatched ?? [],
      total: start.total ?? null,
    };
    const total = cursor.total ?? (await countStoredMessages(vault.db));
    cursor = { ...cursor, total };
    for (;;) {
      if (ctx.signal.aborted) return null;
      const page = await messagePage(vault.db, cursor.position, PAGE);
      if (page.next === null) break;
      const mismatched = [...cursor.mismatched];
      for (const message of page.messages) {
        if ((await contentHash(message.text)) !== message.contentHash) mismatched.push(message.id);
      }
      cursor = { position: page.next, checked: cursor.checked + page.messages.length, mismatched, total };
      await ctx.checkpoint(cursor, { done: cursor.checked, total, unit: 'messages' });
    }
    return { checked: cursor.checked, mismatched: cursor.mismatched };
  };
}
