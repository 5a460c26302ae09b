/**
 * Cheap text features for the deterministic decomposer, the intent line and near-duplicate checks:
 * word tokens, stop words, the question without its frame, key phrases and named terms.
 */

/** Common English function words, plus conversational filler that carries no subject. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or ' +
    'other our ours ourselves out over own same she should so some such than that the their theirs them themselves then ' +
    'there these they this those through to too under until up very was we were what when where which while who whom why ' +
    'will with would you your yours yourself yourselves ' +
    "i'm i've i'd you're it's that's don't didn't doesn't can't won't isn't aren't wasn't weren't " +
    'also any anything something thing things get got really like tell told remind know knew think thought say said ' +
    'please help want need let lets us one ever again maybe much many well yes yeah ok okay'
  ).split(/\s+/u),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** Lowercased word tokens (letters/digits, inner apostrophes and hyphens kept). */
export function words(text: string): string[] {
  return (text.normalize('NFC').toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/gu, "'").replace(/['-]+$/u, ''));
}

/** Content words: tokens that are not stop words and not single characters. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * Frames that wrap the subject of a question ("what did I decide about X", "remind me of X").
 * Applied repeatedly from the start; the longest match wins because alternatives are ordered.
 */
/** A greeting or a "please" before the question ("Hey, ...", "Quick question: ..."). */
export const GREETING_FRAME = /^(?:hey|hi|ok(?:ay)?|so|please|quick question)[,:!]?\s+/iu;

const FRAMES: readonly RegExp[] = [
  GREETING_FRAME,
  /^(?:can|could|would|will) you\s+(?:please\s+)?(?:help me\s+)?(?:tell me|remind me|find|show me|recall|summari[sz]e|explain)?\s*(?:about|of)?\s*/iu,
  /^(?:do|did) (?:you|i|we) (?:remember|recall|know)\s+/iu,
  /^remind me\s+(?:of|about|what|how|why|when|where|who)?\s*/iu,
  /^tell me\s+(?:about|what|how|why|when|where|who)?\s*/iu,
  /^what (?:did|do|have) (?:i|we) (?:decide|decided|say|said|think|thought|conclude|concluded|learn|learned|write|wrote|note|noted|discuss|discussed|know|plan|planned|agree|agreed)\s*(?:about|on|regarding|for|with|concerning)?\s*/iu,
  /^what (?:was|were|is|are) (?:my|our) (?:decision|thoughts?|notes?|conclusions?|plans?|ideas?)\s*(?:about|on|regarding|for)?\s*/iu,
  /^(?:what|which) (?:was|were|is|are|do|does|did)\s+/iu,
  // The same frames contracted ("What's the weather in Paris?"): the index folds "what's" to the term "what".
  /^(?:what|who|where|when|how)['’]s\s+/iu,
  // A question of count ("How many turtles...", "How much did..."): the quantifier is the answer's
  // form, not its subject, and matched "so many days" as if it were. "How long" and "how often" are
  // not frames: answers say "a long time", "often" (services/recall/README.md, "Question frames").
  /^how (?:many|much)(?: times)?\s+(?:(?:do|does|did|can|could|should|would|is|are|was|were|has|have|had)\s+(?:(?:i|we)\s+)?(?=\S))?/iu,
  /^(?:how|why|when|where|who) (?:do|does|did|can|could|should|would|is|are|was|were)\s+(?:i|we)\s+(?=\S)/iu,
  /^(?:how|why|when|where|who) (?:do|does|did|can|could|should|would|is|are|was|were)\s+/iu,
  // A request to describe ("What attributes describe John?", "How would you describe X?") frames X.
  /^(?:(?:what|which) (?:[\p{L}-]+\s+){0,2}(?:best\s+)?describes?|(?:(?:how (?:would|do|did|could) )?(?:you|i|we) )?describe)\s+(?=\S)/iu,
  /^(?:i (?:want|need|would like) to (?:know|understand|find|see)|i'm (?:looking for|trying to (?:find|understand)))\s*(?:about|out|more about|what|how)?\s*/iu,
  /^(?:anything|everything|something) (?:about|on|regarding)\s+/iu,
  /^(?:i|we|you) (?:said|say|discussed|decided|talked|thought|wrote|agreed|noted|concluded)\s*(?:about|on|regarding|over)?\s*/iu,
  /^(?:the|my|our)\s+(?=\S)/iu,
];

// "...both have in common?" asks what the things named share: they are the subject.
const TRAILING = /\s*(?:again|before|earlier|previously|so far|in the past|(?:both\s+)?(?:have|has|had)\s+in\s+common)?\s*[?.!]*\s*$/iu;

/** The question without its frame: "What did I decide about the garden path?" -> "garden path". */
export function unframe(prompt: string): string {
  let text = prompt.normalize('NFC').replace(/\s+/gu, ' ').trim();
  for (let pass = 0; pass < 4; pass += 1) {
    const before = text;
    for (const frame of FRAMES) text = text.replace(frame, '');
    if (text === before) break;
  }
  text = text.replace(TRAILING, '').trim();
  return text.length > 0 ? text : prompt.trim();
}

/**
 * Key phrases, RAKE-style: maximal runs of content words between stop words and punctuation,
 * scored by the sum of word degree / frequency, best first, deduplicated.
 */
export function keyPhrases(text: string, max = 4): string[] {
  const runs: string[][] = [];
  for (const clause of text.split(/[.,;:!?()[\]{}"“”\n]+/u)) {
    let current: string[] = [];
    for (const w of words(clause)) {
      if (w.length > 1 && !STOP_WORDS.has(w)) current.push(w);
      else if (current.length > 0) {
        runs.push(current);
        current = [];
      }
    }
    if (current.length > 0) runs.push(current);
  }
  const freq = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const run of runs) {
    for (const w of run) {
      freq.set(w, (freq.get(w) ?? 0) + 1);
      degree.set(w, (degree.get(w) ?? 0) + run.length);
    }
  }
  const scored = runs.map((run) => ({
    phrase: run.join(' '),
    score: run.reduce((sum, w) => sum + (degree.get(w) ?? 0) / (freq.get(w) ?? 1), 0),
  }));
  const seen = new Set<string>();
  return scored
    .sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase))
    .filter((p) => !seen.has(p.phrase) && seen.add(p.phrase))
    .slice(0, max)
    .map((p) => p.phrase);
}

const NAMED = /(?:[\p{Lu}][\p{L}\p{N}'’.-]*)(?:\s+(?:of|de|von|van|the|and|&)?\s*[\p{Lu}][\p{L}\p{N}'’.-]*)*/gu;
const QUOTED = /["“']([^"”']{2,60})["”']/gu;
const NUMBERISH = /\b\d{2,4}(?:[-/.]\d{1,2}){0,2}\b/gu;

/**
 * Named terms: capitalized words and runs of them (proper nouns, acronyms), quoted strings and
 * years or dates. Capitalized stop words ("What", "Did") at either end of a run are not names.
 */
export function namedTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(QUOTED)) out.push(m[1]!.trim());
  for (const m of text.matchAll(NAMED)) {
    // "Did Caroline" -> "Caroline": a capitalized run may open with a capitalized function word.
    const parts = m[0].replace(/[.'’-]+$/u, '').split(/\s+/u);
    while (parts.length > 0 && STOP_WORDS.has(parts[0]!.toLowerCase())) parts.shift();
    while (parts.length > 0 && STOP_WORDS.has(parts[parts.length - 1]!.toLowerCase())) parts.pop();
    if (parts.length > 0) out.push(parts.join(' '));
  }
  for (const m of text.matchAll(NUMBERISH)) out.push(m[0]);
  const seen = new Set<string>();
  return out.filter((t) => t.length > 1 && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}
