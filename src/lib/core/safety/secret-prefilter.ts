/**
 * Which rules could match a text, found cheaply: most text holds no secret, and scanning it once
 * per rule (ninety rules, a hundred prefixes) would make redaction the slowest step of an import.
 *
 * Every rule's fixed prefixes are indexed by their rarest character (`_` in `ghp_`, `J` in `eyJ`):
 * the text is searched for each such character (a plain character search, the fastest scan a
 * regex engine does), and only where one occurs are the prefixes that contain it checked in place.
 * Rules with a regex hint test it once per text, shared hints once in all.
 */
import type { SecretRule } from './secret-rules';

/** Rarest first in chat text: punctuation, then capitals, digits, lower case by English frequency. */
const RARITY = '~$_"=:+/.-JQZXKVWYUGFHBPMDCLNORISETA9876543210qzxjkvwyufbgphmdclnriostae ';

/** Characters from here on are too common to search for one by one. */
const COMMON = RARITY.indexOf('q');

function rank(ch: string): number {
  const i = RARITY.indexOf(ch);
  return i < 0 ? RARITY.length : i;
}

interface Anchored {
  literal: string;
  /** Where the trigger character sits in the literal. */
  offset: number;
}

interface PrefixIndex {
  /** Every trigger character, as one class: the text is scanned once. */
  scan: RegExp | null;
  byTrigger: Map<string, Anchored[]>;
  /** Literals of common letters only (`mysql`), searched whole. */
  whole: string[];
}

const indexes = new WeakMap<readonly SecretRule[], PrefixIndex>();
const classEscape = (s: string) => s.replace(/[\]\\^-]/g, '\\$&');

function indexOf(rules: readonly SecretRule[]): PrefixIndex {
  let index = indexes.get(rules);
  if (index) return index;
  const byTrigger = new Map<string, Anchored[]>();
  const whole: string[] = [];
  for (const literal of new Set(rules.flatMap((r) => r.prefixes ?? []))) {
    let offset = 0;
    for (let i = 1; i < literal.length; i++) if (rank(literal[i]!) < rank(literal[offset]!)) offset = i;
    if (rank(literal[offset]!) >= COMMON) {
      whole.push(literal);
      continue;
    }
    const trigger = literal[offset]!;
    byTrigger.set(trigger, [...(byTrigger.get(trigger) ?? []), { literal, offset }]);
  }
  const triggers = [...byTrigger.keys()];
  const scan = triggers.length ? new RegExp(`[${triggers.map(classEscape).join('')}]`, 'g') : null;
  index = { scan, byTrigger, whole };
  indexes.set(rules, index);
  return index;
}

/** The rule prefixes that occur in `text`. */
export function presentPrefixes(text: string, rules: readonly SecretRule[]): Set<string> {
  const { scan, byTrigger, whole } = indexOf(rules);
  const seen = new Set<string>();
  for (const literal of whole) if (text.includes(literal)) seen.add(literal);
  if (!scan) return seen;
  scan.lastIndex = 0;
  for (let m = scan.exec(text); m; m = scan.exec(text)) {
    for (const entry of byTrigger.get(m[0])!) {
      if (!seen.has(entry.literal) && text.startsWith(entry.literal, m.index - entry.offset)) seen.add(entry.literal);
    }
  }
  return seen;
}

/** The rules worth running on `text`, in their order. */
export function candidateRules(text: string, rules: readonly SecretRule[]): SecretRule[] {
  let present: Set<string> | null = null;
  const hints = new Map<RegExp, boolean>();
  return rules.filter((rule) => {
    if (rule.prefixes) {
      present ??= presentPrefixes(text, rules);
      const seen = present;
      return rule.prefixes.some((p) => seen.has(p));
    }
    const hint = rule.hint ?? rule.anchor;
    if (!hint) return true;
    let hit = hints.get(hint);
    if (hit === undefined) {
      hint.lastIndex = 0;
      hit = hint.test(text);
      hint.lastIndex = 0;
      hints.set(hint, hit);
    }
    return hit;
  });
}
