/**
 * Read-time sanitizing: the last step before stored text is copied into someone's prompt. The
 * write-time rules run again (rules improve; old rows were stored under older ones), and then the
 * text is made safe to hand to a model: hidden characters removed, secrets redacted,
 * injection-like lines neutralized and marked as quoted data, exfiltration-shaped links and images
 * turned into inert text. The stored text itself is never changed by this.
 */
import { detectInjection, injectionFlags } from './injection';
import { makeLinksInert } from './inert-links';
import { redactSecrets, type SecretKind } from './redact-secrets';
import { stripHiddenText } from './hidden-text';

export interface ReadSanitized {
  text: string;
  redactions: Partial<Record<SecretKind, number>>;
  /** `injection:<kind>` per kind found, and `hidden-text` when tag characters spelled something. */
  flags: string[];
  hiddenRemoved: number;
  neutralizedLines: number;
  inertLinks: number;
}

export const NEUTRALIZED_MARK = '[quoted, possible prompt injection]';

/** Breaks chat-template tokens so a model cannot read them as turn boundaries. */
function defuseTemplateTokens(line: string): string {
  return line
    .replace(/<\|/gu, '‹|')
    .replace(/\|>/gu, '|›')
    .replace(/<(\/?)(system|user|assistant)>/giu, '‹$1$2›')
    .replace(/<<(\/?)SYS>>/giu, '«$1SYS»')
    .replace(/\[(\/?)INST\]/giu, '($1INST)');
}

/** A flagged line, kept readable but framed as quoted data rather than an instruction. */
export function neutralizeLine(line: string): string {
  const indent = /^\s*/u.exec(line)![0];
  return `${indent}${NEUTRALIZED_MARK} “${defuseTemplateTokens(line.slice(indent.length))}”`;
}

export function sanitizeForRead(text: string): ReadSanitized {
  const hidden = stripHiddenText(text, 'strip');
  const redacted = redactSecrets(hidden.text);
  const found = detectInjection(redacted.text);
  const smuggledFlags = hidden.smuggled.trim() !== '' ? ['hidden-text', ...injectionFlags(detectInjection(hidden.smuggled))] : [];
  const inert = makeLinksInert(redacted.text);
  const flagged = new Set(found.map((f) => f.line));
  // A line neutralized by an earlier pass is left as it is: sanitizing twice changes nothing.
  const lines = inert.text
    .split('\n')
    .map((line, i) => (flagged.has(i) && !line.trimStart().startsWith(NEUTRALIZED_MARK) ? neutralizeLine(line) : line));
  return {
    text: lines.join('\n'),
    redactions: redacted.redactions,
    flags: [...new Set([...injectionFlags(found), ...smuggledFlags])],
    hiddenRemoved: hidden.removed,
    neutralizedLines: flagged.size,
    inertLinks: inert.count,
  };
}
