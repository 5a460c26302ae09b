/**
 * `sanitizeForRead` in the shape budget assembly takes: the safe text and the flags shown with the
 * item. Redacted secrets are flagged too, so the package says a memory was changed on its way out.
 */
import type { Sanitizer } from '../../core/recall/budget';
import { sanitizeForRead } from '../../core/safety/sanitize-read';

export const readSanitizer: Sanitizer = (text, context) => {
  const safe = sanitizeForRead(text, { source: context.source, flaggedLines: context.flaggedLines });
  const redacted = Object.entries(safe.redactions)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([kind]) => `redacted:${kind}`);
  return { text: safe.text, flags: [...safe.flags, ...redacted] };
};
