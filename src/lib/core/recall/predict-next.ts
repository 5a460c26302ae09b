/**
 * The slow thinker's guesses: after a recall (and as the person types, each pause is a recall),
 * the prompts the person is likely to ask next, so their results can be computed in the background
 * (services/recall/prefetch.ts). Guesses come from three places:
 *
 * - analogous: the same question about another person or thing named in the session (a
 *   conversation about two people is asked about both: "What did Melanie paint?" after "What did
 *   Caroline paint?");
 * - shown: the named entities and topics of the items just shown that the prompt did not name;
 * - unanswered: the prompt's own content words that no item shown holds, asked on their own with
 *   the prompt's subject;
 * - recent: the session's earlier prompts, when a newer one changed the subject back.
 *
 * A guess is matched to a later prompt by `promptKey`: the same stemmed content words of the
 * unframed prompt, in any order and inflection ("What has Caroline painted?" = "caroline paint").
 */
import { stemmer } from 'stemmer';
import { contentWords, keyPhrases, namedTerms, unframe } from './text-features';

export type PredictionSource = 'analogous' | 'shown' | 'unanswered' | 'recent';

export interface PredictedPrompt {
  prompt: string;
  key: string;
  source: PredictionSource;
  reason: string;
}

export interface PredictionInput {
  /** The prompt just recalled. */
  prompt: string;
  /** The session's earlier prompts, oldest first (the current one excluded). */
  recent: readonly string[];
  /** Texts of the items just shown, best first. */
  shown: readonly string[];
}

/** The key a prompt is cached and matched under: its stemmed content words, sorted, each once. */
export function promptKey(prompt: string): string {
  const stems = contentWords(unframe(prompt)).map((w) => stemmer(w.replace(/'s$/u, '')));
  return [...new Set(stems)].sort().join(' ');
}

const lower = (s: string) => s.toLowerCase();

/** Names the session mentioned (prompts first, then items), most frequent first, excluding `except`. */
function sessionNames(texts: readonly string[], except: ReadonlySet<string>): string[] {
  const counts = new Map<string, { name: string; n: number; first: number }>();
  texts.forEach((text, at) => {
    for (const name of namedTerms(text)) {
      if (/^\d/u.test(name) || except.has(lower(name))) continue;
      const known = counts.get(lower(name));
      if (known) known.n += 1;
      else counts.set(lower(name), { name, n: 1, first: at });
    }
  });
  return [...counts.values()].sort((a, b) => b.n - a.n || a.first - b.first).map((c) => c.name);
}

function replaceWord(text: string, from: string, to: string): string {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return text.replace(new RegExp(`\\b${escaped}\\b`, 'gu'), to);
}

/** Up to `max` guesses, most likely first, none the prompt itself, none twice (by key). */
export function predictNext(input: PredictionInput, max = 4): PredictedPrompt[] {
  const own = promptKey(input.prompt);
  const seen = new Set([own]);
  const out: PredictedPrompt[] = [];
  const add = (prompt: string, source: PredictionSource, reason: string) => {
    const key = promptKey(prompt);
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push({ prompt, key, source, reason });
  };
  const named = namedTerms(input.prompt).filter((n) => !/^\d/u.test(n));
  const namedSet = new Set(named.map(lower));
  const subject = named[0] ?? null;

  // Analogous: the same question about the session's other named people or things.
  if (subject) {
    for (const other of sessionNames([...input.recent, ...input.shown], namedSet).slice(0, 2)) {
      add(replaceWord(input.prompt, subject, other), 'analogous', `the same question about ${other}, also named in this session`);
    }
  }
  // Shown: named entities and topics of the items just shown that the prompt did not name.
  const promptWords = new Set(contentWords(input.prompt));
  const topics = keyPhrases(input.shown.slice(0, 5).join('\n'), 6).filter((p) => !p.split(' ').every((w) => promptWords.has(w)));
  for (const topic of topics.slice(0, 2)) {
    add(subject ? `${subject} ${topic}` : topic, 'shown', `"${topic}" came up in the items just shown`);
  }
  // Unanswered: the prompt's content words no item shown holds.
  const stem = (w: string) => stemmer(w.replace(/'s$/u, ''));
  const shownStems = new Set(input.shown.flatMap((t) => contentWords(t).map(stem)));
  const missing = contentWords(unframe(input.prompt)).filter((w) => !shownStems.has(stem(w)) && !namedSet.has(w));
  if (missing.length > 0 && input.shown.length > 0) {
    add([subject, ...missing].filter(Boolean).join(' '), 'unanswered', `nothing shown holds "${missing.join(' ')}"`);
  }
  // Recent: the earlier prompts, newest first, so going back to a subject is instant.
  for (const earlier of [...input.recent].reverse().slice(0, 2)) add(earlier, 'recent', 'asked earlier in this session');
  return out.slice(0, max);
}
