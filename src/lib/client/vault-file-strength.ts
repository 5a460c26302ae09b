/**
 * A hint about a passphrase's strength, for the export form. An estimate, not a guarantee: bits from
 * the character pool and length, with the usual weaknesses (repeats, runs, a single word) discounted.
 * The passphrase is stretched with Argon2id either way; this only tells the person how guessable
 * the passphrase itself is.
 */
export type Strength = 'too-short' | 'weak' | 'fair' | 'strong';

export interface StrengthHint {
  strength: Strength;
  bits: number;
  message: string;
}

export const MIN_PASSPHRASE_LENGTH = 8;

function poolSize(text: string): number {
  let pool = 0;
  if (/[a-z]/.test(text)) pool += 26;
  if (/[A-Z]/.test(text)) pool += 26;
  if (/[0-9]/.test(text)) pool += 10;
  if (/[^A-Za-z0-9\s]/.test(text)) pool += 33;
  if (/\s/.test(text)) pool += 1;
  if (/[^\p{ASCII}]/u.test(text)) pool += 100;
  return Math.max(pool, 1);
}

/** Characters after collapsing repeats ("aaaa") and runs ("abcd", "1234"), which add little. */
function effectiveLength(text: string): number {
  let length = 0;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const prev = chars[i - 1]?.codePointAt(0);
    const cur = chars[i]!.codePointAt(0)!;
    if (prev !== undefined && (cur === prev || cur === prev + 1 || cur === prev - 1)) length += 0.25;
    else length += 1;
  }
  return length;
}

export function passphraseStrength(passphrase: string): StrengthHint {
  const length = [...passphrase].length;
  if (length < MIN_PASSPHRASE_LENGTH) {
    return {
      strength: 'too-short',
      bits: 0,
      message: `Use at least ${MIN_PASSPHRASE_LENGTH} characters; four or more random words are best.`,
    };
  }
  const words = passphrase.trim().split(/\s+/).filter(Boolean).length;
  const bits = Math.round(
    effectiveLength(passphrase) * Math.log2(poolSize(passphrase)) * (words === 1 && /^[a-z]+$/i.test(passphrase) ? 0.5 : 1),
  );
  if (bits < 45) return { strength: 'weak', bits, message: 'Weak: easy to guess. Add words or characters.' };
  if (bits < 70) return { strength: 'fair', bits, message: 'Fair. A few more random words make it strong.' };
  return { strength: 'strong', bits, message: 'Strong.' };
}
