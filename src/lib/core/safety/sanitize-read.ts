/**
 * Read-time sanitizing: the last step before stored text is copied into someone's prompt. The
 * write-time rules run again (rules improve; old rows were stored under older ones), and then the
 * text is made safe to hand to a model: hidden characters removed, secrets redacted,
 * exfiltration-shaped links and images turned into inert text, and injection-like lines taken out.
 *
 * A flagged line is dropped by default and replaced by a marker naming its source, so the package
 * says something was removed and where from, without carrying the instruction itself. With the
 * `quote` policy the line stays, framed as quoted data with its chat-template tokens broken. The
 * stored text itself is never changed by this.
 */
import { detectInjection, injectionFlags } from './injection';
import { makeLinksInert } from './inert-links';
import { redactSecrets, type SecretKind } from './redact-secrets';
import { stripHiddenText } from './hidden-text';

export type FlaggedLinePolicy = 'drop' | 'quote';

export interface ReadOptions {
  /** What happens to a line flagged as possible prompt injection (default `drop`). */
  flaggedLines?: FlaggedLinePolicy;
  /** Where the text comes from, named in the marker of a dropped line (a title, or an id). */
  source?: string;
}

export interface ReadSanitized {
  text: string;
  redactions: Partial<Record<SecretKind, number>>;
  /** `injection:<kind>` per kind found, and `hidden-text` when tag characters spelled something. */
  flags: string[];
  hiddenRemoved: number;
  /** Flagged lines dropped or quoted. */
  neutralizedLines: number;
  inertLinks: number;
}

export const NEUTRALIZED_MARK = '[quoted, possible prompt injection]';
export const DROPPED_MARK = '[line removed';

/** A source name safe inside a marker: one line, no brackets or quotes, short. */
function sourceName(source: string | undefined): string {
  const name = (source ?? '')
    .replace(/[\r\n[\]“”"<>]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return name === '' ? 'this item' : `“${name.length > 80 ? `${name.slice(0, 79)}…` : name}”`;
}

/** The marker that stands in for a dropped line. */
export function droppedLineMarker(source: string | undefined, kinds: readonly string[]): string {
  return `${DROPPED_MARK} from ${sourceName(source)}: it read like an instruction to a model (${kinds.join(', ')})]`;
}

/** Breaks chat-template tokens so a model cannot read them as turn boundaries. */
function defuseTemplateTokens(line: string): string {
  return line
    .replace(/<\|/gu, '‹|')
    .replace(/\|>/gu, '|›')
    .replace(/<(\/?)(system|user|assistant|message|instructions?|document)\b/giu, '‹$1$2')
    .replace(/<<(\/?)SYS>>/giu, '«$1SYS»')
    .replace(/\[(\/?)INST\]/giu, '($1INST)');
}

/** A flagged line, kept readable but framed as quoted data rather than an instruction. */
export function neutralizeLine(line: string): string {
  const indent = /^\s*/u.exec(line)![0];
  return `${indent}${NEUTRALIZED_MARK} “${defuseTemplateTokens(line.slice(indent.length))}”`;
}

const alreadyHandled = (line: string) => {
  const start = line.trimStart();
  return start.startsWith(NEUTRALIZED_MARK) || start.startsWith(DROPPED_MARK);
};

export function sanitizeForRead(text: string, options: ReadOptions = {}): ReadSanitized {
  const policy = options.flaggedLines ?? 'drop';
  const hidden = stripHiddenText(text, 'strip');
  const redacted = redactSecrets(hidden.text);
  const found = detectInjection(redacted.text).filter((f) => !alreadyHandled(redacted.text.split('\n')[f.line] ?? ''));
  const smuggledFlags = hidden.smuggled.trim() !== '' ? ['hidden-text', ...injectionFlags(detectInjection(hidden.smuggled))] : [];
  const inert = makeLinksInert(redacted.text);
  const kindsByLine = new Map<number, string[]>();
  for (const f of found) kindsByLine.set(f.line, [...(kindsByLine.get(f.line) ?? []), f.kind]);
  const lines = inert.text.split('\n').map((line, i) => {
    const kinds = kindsByLine.get(i);
    if (!kinds) return line;
    if (policy === 'quote') return neutralizeLine(line);
    return `${/^\s*/u.exec(line)![0]}${droppedLineMarker(options.source, kinds)}`;
  });
  return {
    text: lines.join('\n'),
    redactions: redacted.redactions,
    flags: [...new Set([...injectionFlags(found), ...smuggledFlags])],
    hiddenRemoved: hidden.removed,
    neutralizedLines: kindsByLine.size,
    inertLinks: inert.count,
  };
}
