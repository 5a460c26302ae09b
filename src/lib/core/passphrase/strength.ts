/**
 * Passphrase strength, for every passphrase that will encrypt a vault file (export, sync folder,
 * CLI). Estimated by zxcvbn-ts (pattern matching against dictionaries of common passwords, English
 * words, names and keyboard walks, with l33t and repeat detection), not by counting character
 * classes: "P@ssw0rd2024" has four classes and is still one of the first guesses an attacker tries.
 *
 * Policy: at least 8 characters, and a zxcvbn score of 3 or more (over 10^8 guesses, times the
 * Argon2id cost per guess). Scores 0-2 are refused; 3 is accepted as fair, 4 shown as strong.
 * The dictionaries are large (about 1.6 MB minified), so they are loaded on first use.
 */

export type Strength = 'too-short' | 'weak' | 'fair' | 'strong';

export interface StrengthHint {
  strength: Strength;
  /** zxcvbn score 0-4 (0 for too short). */
  score: number;
  guessesLog10: number;
  /** Whether the passphrase may encrypt a vault file. */
  acceptable: boolean;
  message: string;
}

export const MIN_PASSPHRASE_LENGTH = 8;
export const MIN_SCORE = 3;

/** Words of this app that make a passphrase easier to guess for someone who knows where it is used. */
const APP_WORDS = ['engram', 'vault', 'engramvault', 'memory', 'passphrase'];

interface Estimator {
  check(
    password: string,
    userInputs?: string[],
  ): { score: number; guessesLog10: number; feedback: { warning: string | null; suggestions: string[] } };
}

let estimator: Promise<Estimator> | null = null;

function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary, engram: APP_WORDS },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    }) as unknown as Estimator;
  })();
  return estimator;
}

export async function assessPassphrase(passphrase: string): Promise<StrengthHint> {
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) {
    return {
      strength: 'too-short',
      score: 0,
      guessesLog10: 0,
      acceptable: false,
      message: `Use at least ${MIN_PASSPHRASE_LENGTH} characters; four or more random words are best.`,
    };
  }
  const result = (await loadEstimator()).check(passphrase, APP_WORDS);
  const why = [result.feedback.warning, ...result.feedback.suggestions].filter((s): s is string => Boolean(s)).join(' ');
  if (result.score < MIN_SCORE) {
    return {
      strength: 'weak',
      score: result.score,
      guessesLog10: result.guessesLog10,
      acceptable: false,
      message: `Too easy to guess${why ? `: ${why}` : '.'} Add more unrelated words, or use a generated passphrase.`,
    };
  }
  const strong = result.score >= 4;
  return {
    strength: strong ? 'strong' : 'fair',
    score: result.score,
    guessesLog10: result.guessesLog10,
    acceptable: true,
    message: strong ? 'Strong.' : 'Fair. One or two more random words make it strong.',
  };
}

/** Words per generated passphrase, and the list they come from (a diceware-sized list: 7,776). */
export const GENERATED_WORDS = 6;
const LIST_SIZE = 7776;

/** The estimator's most common English words of 4-8 letters: memorable, and each worth 12.9 bits. */
async function wordList(): Promise<string[]> {
  const en = await import('@zxcvbn-ts/language-en');
  const common = (en.dictionary as unknown as Record<string, unknown>)['commonWords-en'];
  const words = (Array.isArray(common) ? (common as unknown[]) : []).filter(
    (w): w is string => typeof w === 'string' && /^[a-z]{4,8}$/.test(w),
  );
  return [...new Set(words)].slice(0, LIST_SIZE);
}

/**
 * A passphrase of `words` random words (from a cryptographic source), joined by hyphens, and what
 * it is worth in bits (6 words of 7,776: 77 bits).
 */
export async function generatePassphrase(
  random: (n: number) => Uint32Array,
  words = GENERATED_WORDS,
): Promise<{ passphrase: string; bits: number }> {
  const list = await wordList();
  const limit = Math.floor(0x1_0000_0000 / list.length) * list.length;
  const out: string[] = [];
  while (out.length < words) {
    for (const value of random(words)) {
      // Rejection sampling: no word is likelier than another.
      if (value < limit && out.length < words) out.push(list[value % list.length]!);
    }
  }
  return { passphrase: out.join('-'), bits: Math.floor(words * Math.log2(list.length)) };
}
