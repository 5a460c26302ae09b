/**
 * Secret redaction, applied before anything is stored (write time) and again before anything is
 * copied out (read time). People paste keys into chats; the vault must not keep them, and a
 * recall package must never carry one into another prompt. The rules are in secret-rules.ts.
 *
 * A match becomes `[REDACTED:<kind>]`, or for rules with a context (a `Bearer` prefix, a
 * `DB_PASSWORD=` label, a URL's user) only the secret part is replaced so the sentence still reads.
 *
 * Markers never nest: every rule is matched against the text as given, the matches are collected
 * as spans (an earlier rule's span wins an overlap; a span touching a marker already in the text is
 * dropped), and the text is rebuilt once. So `https://<token>:<password>@host` gives two markers side
 * by side, and redacting a redacted text changes nothing (the read path re-runs the rules on text
 * stored under older ones).
 */
import { candidateRules } from './secret-prefilter';
import { SECRET_RULES, type SecretKind, type SecretRule } from './secret-rules';
import { isPlaceholder } from './secret-values';

export { SECRET_KINDS, SECRET_RULES, type SecretKind, type SecretRule } from './secret-rules';

export interface Redacted {
  text: string;
  /** Redactions per kind; kinds with none are absent. */
  redactions: Partial<Record<SecretKind, number>>;
}

interface Span {
  start: number;
  end: number;
  kind: SecretKind | null;
}

const MARKER = /\[REDACTED:[a-z0-9-]{1,40}\]/g;

export const redactionMarker = (kind: string) => `[REDACTED:${kind}]`;

function overlaps(spans: readonly Span[], start: number, end: number): boolean {
  return spans.some((s) => start < s.end && s.start < end);
}

/** A rule's matches: a global pattern's, or a sticky pattern's tried at each anchor. */
function* matchesOf(rule: SecretRule, text: string): Generator<RegExpExecArray> {
  if (!rule.anchor) {
    rule.pattern.lastIndex = 0;
    yield* text.matchAll(rule.pattern);
    return;
  }
  rule.anchor.lastIndex = 0;
  let end = 0;
  for (const at of text.matchAll(rule.anchor)) {
    if (at.index < end) continue;
    rule.pattern.lastIndex = at.index;
    const match = rule.pattern.exec(text);
    if (!match) continue;
    end = match.index + match[0].length;
    yield match;
  }
}

/** Spans of secrets in `text`, in rule order (no two overlap; none overlaps an existing marker). */
export function findSecrets(text: string, rules: readonly SecretRule[] = SECRET_RULES): Span[] {
  const candidates = candidateRules(text, rules);
  if (candidates.length === 0) return [];
  const spans: Span[] = text.includes('[REDACTED:')
    ? [...text.matchAll(MARKER)].map((m) => ({ start: m.index, end: m.index + m[0].length, kind: null }))
    : [];
  for (const rule of candidates) {
    for (const match of matchesOf(rule, text)) {
      const group = rule.group ?? 0;
      const secret = match[group];
      const range = match.indices?.[group];
      if (!secret || !range) continue;
      if (isPlaceholder(secret) || (rule.accept && !rule.accept(secret, match))) continue;
      if (overlaps(spans, range[0], range[1])) continue;
      spans.push({ start: range[0], end: range[1], kind: rule.kind });
    }
  }
  return spans.filter((s) => s.kind !== null).sort((a, b) => a.start - b.start);
}

/**
 * One pass can leave a secret whose boundary only appears once its neighbour became a marker
 * (`...Nw==ghp_...`: the Basic credential ends where the token starts); passes repeat until nothing
 * changes, so redacting a redacted text is a no-op. Every pass only adds markers, so it settles.
 */
const MAX_PASSES = 4;

export function redactSecrets(text: string, rules: readonly SecretRule[] = SECRET_RULES): Redacted {
  const redactions: Partial<Record<SecretKind, number>> = {};
  let out = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = redactOnce(out, rules, redactions);
    if (next === out) break;
    out = next;
  }
  return { text: out, redactions };
}

function redactOnce(text: string, rules: readonly SecretRule[], redactions: Partial<Record<SecretKind, number>>): string {
  const spans = findSecrets(text, rules);
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    const kind = span.kind!;
    redactions[kind] = (redactions[kind] ?? 0) + 1;
    parts.push(text.slice(at, span.start), redactionMarker(kind));
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** Adds counts of `more` into `into` (for totals across messages). */
export function addRedactions(into: Partial<Record<SecretKind, number>>, more: Partial<Record<SecretKind, number>>): void {
  for (const kind of Object.keys(more) as SecretKind[]) into[kind] = (into[kind] ?? 0) + (more[kind] ?? 0);
}
