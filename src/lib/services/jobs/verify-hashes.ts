import { contentHash } from '../../core/text/normalize';
import type { JobHandler } from '../../store/job-runner';
import type { Vault } from '../../store/vault';
import { countStoredMessages, messagePage } from '../../store/messages-store';

export const VERIFY_HASHES = 'vault.verify-hashes';

interface Cursor {
  afterId: string | null;
  checked: number;
  mismatched: string[];
  total: number | null;
}

const PAGE = 500;

/**
 * Integrity check: recomputes the content hash of every stored message and lists those whose
 * text no longer matches (disk damage, a bad migration, a hand-edited vault file). Resumable: the
 * cursor is the last message id checked.
 */
export function verifyHashesHandler(vault: Vault): JobHandler {
  return async (ctx) => {
    const start = (ctx.job.payload ?? {}) as Partial<Cursor>;
    let cursor: Cursor = {
      afterId: start.afterId ?? null,
      checked: start.checked ?? 0,
      mismatched: start.mismatched ?? [],
      total: start.total ?? null,
    };
    const total = cursor.total ?? (await countStoredMessages(vault.db));
    cursor = { ...cursor, total };
    for (;;) {
      if (ctx.signal.aborted) return null;
      const page = await messagePage(vault.db, cursor.afterId, PAGE);
      if (page.length === 0) break;
      const mismatched = [...cursor.mismatched];
      for (const message of page) {
        if ((await contentHash(message.text)) !== message.contentHash) mismatched.push(message.id);
      }
      cursor = { ...cursor, afterId: page[page.length - 1]!.id, checked: cursor.checked + page.length, mismatched };
      await ctx.checkpoint(cursor, { done: cursor.checked, total, unit: 'messages' });
    }
    return { checked: cursor.checked, mismatched: cursor.mismatched };
  };
}
