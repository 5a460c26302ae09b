/**
 * Write-time safety, applied to every message and resource before it is stored: hidden characters
 * stripped (so a key split by zero-width spaces is still found), secrets redacted, and
 * injection-like lines flagged. Flags do not change the text: a stored chat keeps what was said;
 * read time (sanitize-read.ts) decides how flagged lines travel into a prompt.
 */
import { stripHiddenText } from './hidden-text';
import { detectInjection, injectionFlags } from './injection';
import { redactSecrets, type SecretKind } from './redact-secrets';

export interface WriteSafetyResult {
  text: string;
  redactions: Partial<Record<SecretKind, number>>;
  /** `injection:<kind>` per kind found; `hidden-text` when tag characters spelled hidden ASCII. */
  flags: string[];
  hiddenRemoved: number;
}

export function applyWriteSafety(text: string): WriteSafetyResult {
  const hidden = stripHiddenText(text, 'strip');
  const redacted = redactSecrets(hidden.text);
  const flags = injectionFlags(detectInjection(redacted.text));
  if (hidden.smuggled.trim() !== '') {
    // What the invisible characters spelled is checked too: that is where an attack would hide.
    flags.push('hidden-text', ...injectionFlags(detectInjection(hidden.smuggled)));
  }
  return { text: redacted.text, redactions: redacted.redactions, flags: [...new Set(flags)], hiddenRemoved: hidden.removed };
}
