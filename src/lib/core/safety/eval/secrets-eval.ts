/**
 * Scores a secret redactor on a labelled corpus (tests/fixtures/secrets/corpus.json): recall over
 * the secret cases, false positives over the benign look-alikes. Pure: the redactor is a parameter,
 * so the app's own rules, a library's, or both can be measured the same way.
 *
 * A secret case is caught when none of its secret values is left in the output, nor any
 * `WINDOW`-character piece of a long one (a half-masked key still leaks). A benign case is a false
 * positive when the redactor changed anything in it.
 */

export interface SecretCase {
  id: string;
  kind: string;
  form: string;
  text: string;
  secrets: string[];
}

export interface BenignCase {
  id: string;
  category: string;
  text: string;
}

export interface SecretsCorpus {
  secrets: SecretCase[];
  benign: BenignCase[];
}

export interface KindScore {
  cases: number;
  caught: number;
  recall: number;
}

export interface SecretsEvalReport {
  redactor: string;
  recall: number;
  falsePositiveRate: number;
  /** Kinds with at least one missed case. */
  missed: string[];
  byKind: Record<string, KindScore>;
  cases: number;
  benign: number;
  missedCases: { id: string; kind: string; form: string }[];
  falsePositives: { id: string; category: string; text: string }[];
}

/** Pieces this long of a secret must not survive. */
export const WINDOW = 16;

/** Whether `output` still holds `secret`, or a WINDOW-long piece of it. */
export function leaks(output: string, secret: string): boolean {
  if (output.includes(secret)) return true;
  if (secret.length <= WINDOW + 4) return false;
  for (let i = 0; i + WINDOW <= secret.length; i++) if (output.includes(secret.slice(i, i + WINDOW))) return true;
  return false;
}

const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10_000) / 10_000);

export function isSecretsCorpus(value: unknown): value is SecretsCorpus {
  const v = value as Partial<SecretsCorpus> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.secrets) &&
    Array.isArray(v.benign) &&
    v.secrets.every((c) => typeof c?.text === 'string' && typeof c.kind === 'string' && Array.isArray(c.secrets)) &&
    v.benign.every((c) => typeof c?.text === 'string')
  );
}

export function evalSecrets(corpus: SecretsCorpus, redact: (text: string) => string, redactor: string): SecretsEvalReport {
  const byKind: Record<string, KindScore> = {};
  const missedCases: SecretsEvalReport['missedCases'] = [];
  for (const c of corpus.secrets) {
    const out = redact(c.text);
    const caught = !c.secrets.some((s) => leaks(out, s));
    const score = (byKind[c.kind] ??= { cases: 0, caught: 0, recall: 0 });
    score.cases++;
    if (caught) score.caught++;
    else missedCases.push({ id: c.id, kind: c.kind, form: c.form });
  }
  for (const score of Object.values(byKind)) score.recall = ratio(score.caught, score.cases);
  const falsePositives = corpus.benign
    .filter((c) => redact(c.text) !== c.text)
    .map((c) => ({ id: c.id, category: c.category, text: c.text }));
  const caught = corpus.secrets.length - missedCases.length;
  return {
    redactor,
    recall: ratio(caught, corpus.secrets.length),
    falsePositiveRate: ratio(falsePositives.length, corpus.benign.length),
    missed: [...new Set(missedCases.map((c) => c.kind))].sort(),
    byKind: Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => (a < b ? -1 : 1))),
    cases: corpus.secrets.length,
    benign: corpus.benign.length,
    missedCases,
    falsePositives,
  };
}
