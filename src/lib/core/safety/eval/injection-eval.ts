/**
 * Scores an injection detector on a labelled corpus (tests/fixtures/injection/corpus.json):
 * detection over the attempts, false flags over benign lines that talk about prompts. Pure: the
 * detector is a parameter. A text counts as flagged when the detector flags any of its lines.
 */

export interface InjectionAttempt {
  id: string;
  technique: string;
  text: string;
}

export interface BenignLine {
  id: string;
  category: string;
  text: string;
}

export interface InjectionCorpus {
  attacks: InjectionAttempt[];
  benign: BenignLine[];
}

export interface TechniqueScore {
  cases: number;
  detected: number;
  detection: number;
}

export interface InjectionEvalReport {
  detection: number;
  falseFlagRate: number;
  /** Techniques with at least one attempt missed. */
  missed: string[];
  byTechnique: Record<string, TechniqueScore>;
  attacks: number;
  benign: number;
  missedCases: InjectionAttempt[];
  falseFlags: BenignLine[];
}

const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10_000) / 10_000);

export function isInjectionCorpus(value: unknown): value is InjectionCorpus {
  const v = value as Partial<InjectionCorpus> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.attacks) &&
    Array.isArray(v.benign) &&
    v.attacks.every((c) => typeof c?.text === 'string' && typeof c.technique === 'string') &&
    v.benign.every((c) => typeof c?.text === 'string')
  );
}

export function evalInjection(corpus: InjectionCorpus, flagged: (text: string) => boolean): InjectionEvalReport {
  const byTechnique: Record<string, TechniqueScore> = {};
  const missedCases: InjectionAttempt[] = [];
  for (const attempt of corpus.attacks) {
    const score = (byTechnique[attempt.technique] ??= { cases: 0, detected: 0, detection: 0 });
    score.cases++;
    if (flagged(attempt.text)) score.detected++;
    else missedCases.push(attempt);
  }
  for (const score of Object.values(byTechnique)) score.detection = ratio(score.detected, score.cases);
  const falseFlags = corpus.benign.filter((line) => flagged(line.text));
  return {
    detection: ratio(corpus.attacks.length - missedCases.length, corpus.attacks.length),
    falseFlagRate: ratio(falseFlags.length, corpus.benign.length),
    missed: [...new Set(missedCases.map((c) => c.technique))].sort(),
    byTechnique,
    attacks: corpus.attacks.length,
    benign: corpus.benign.length,
    missedCases,
    falseFlags,
  };
}
