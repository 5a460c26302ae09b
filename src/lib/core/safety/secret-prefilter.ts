/**
 * Which rules could match a text, found cheaply: most text holds no secret, and scanning it once
 * per rule (ninety rules, a hundred prefixes) would make redaction the slowest step of an import.
 *
 * All rules' fixed prefixes are found in one pass (the automaton of stem-scan.ts), and each prefix
 * seen picks the rules it belongs to. Rules with a regex hint test it once per text, shared hints
 * once in all. The pass reads a run of white space as one space, so a prefix with a space in it
 * (`PRIVATE KEY`) is seen a little more often than it occurs: a rule picked runs its own pattern,
 * which decides.
 *
 * An import runs this on every message and on two ids of each. Measured on 320,000 ids shaped as
 * the generated archive's (`c12-n3` and UUIDs; Node 20, the mean of five passes): the earlier prefilter
 * (each prefix indexed by its rarest character, searched for with a regex character class, then
 * every rule tested against the prefixes seen) took 5.3 µs per id, this one 0.63 µs. Redacting
 * the 80,131 messages of a fifth of the generated 300 MB archive took 1.15 s before, 0.80-0.97 s
 * after (several runs).
 */
import { stemScanner, type StemScanner } from './stem-scan';
import type { SecretRule } from './secret-rules';

interface RuleIndex {
  scanner: StemScanner;
  /** Per prefix (as the scanner numbers them), the rules (by index) that hold it. */
  rulesOfPrefix: number[][];
  /** Per distinct hint, the rules without prefixes that test it. */
  hints: { hint: RegExp; rules: number[] }[];
  /** Rules with neither prefixes nor a hint: they run on every text. */
  always: number[];
}

const indexes = new WeakMap<readonly SecretRule[], RuleIndex>();

function indexOf(rules: readonly SecretRule[]): RuleIndex {
  let index = indexes.get(rules);
  if (index) return index;
  const prefixes = [...new Set(rules.flatMap((r) => r.prefixes ?? []))];
  const number = new Map(prefixes.map((p, i) => [p, i]));
  const rulesOfPrefix: number[][] = prefixes.map(() => []);
  const byHint = new Map<RegExp, number[]>();
  const always: number[] = [];
  rules.forEach((rule, r) => {
    if (rule.prefixes) {
      for (const prefix of new Set(rule.prefixes)) rulesOfPrefix[number.get(prefix)!]!.push(r);
      return;
    }
    const hint = rule.hint ?? rule.anchor;
    if (!hint) always.push(r);
    else byHint.set(hint, [...(byHint.get(hint) ?? []), r]);
  });
  index = {
    scanner: stemScanner(prefixes),
    rulesOfPrefix,
    hints: [...byHint].map(([hint, ruleIndexes]) => ({ hint, rules: ruleIndexes })),
    always,
  };
  indexes.set(rules, index);
  return index;
}

/** The rules worth running on `text`, in their order. */
export function candidateRules(text: string, rules: readonly SecretRule[]): SecretRule[] {
  const { scanner, rulesOfPrefix, hints, always } = indexOf(rules);
  const picked: number[] = [...always];
  for (const prefix of scanner.scan(text)) picked.push(...rulesOfPrefix[prefix]!);
  for (const { hint, rules: hinted } of hints) {
    hint.lastIndex = 0;
    const hit = hint.test(text);
    hint.lastIndex = 0;
    if (hit) picked.push(...hinted);
  }
  if (picked.length === 0) return [];
  return [...new Set(picked)].sort((a, b) => a - b).map((r) => rules[r]!);
}
