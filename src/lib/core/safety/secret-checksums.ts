/**
 * Checksums that tell a payment number from any long number: a card number must pass the Luhn
 * check (ISO/IEC 7812) and start like a card (major industry identifier 2-6); an IBAN must have
 * its country's length and pass the ISO 13616 mod-97 check. Only numbers that pass are redacted,
 * so order numbers, timestamps and ledger codes stay readable.
 */

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Published test numbers (Stripe, Adyen, PayPal docs): safe to keep, and people quote them. */
const TEST_CARDS = new Set([
  '4242424242424242',
  '4111111111111111',
  '4000056655665556',
  '4012888888881881',
  '5555555555554444',
  '5105105105105100',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3530111333300000',
]);

/** A card number as written (spaces or dashes between groups, or none). */
export function isCardNumber(written: string): boolean {
  // One kind of separator, never two in a row: "4539 5787-6362 1486" is not how a card is written.
  if (new Set(written.replace(/\d/g, '')).size > 1 || /[ -]{2}/.test(written)) return false;
  const digits = written.replace(/[ -]/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  if (!/^[2-6]/.test(digits)) return false;
  return !TEST_CARDS.has(digits) && luhnValid(digits);
}

/** IBAN length per country (SWIFT IBAN registry), for the countries people most often paste. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TN: 24,
  TR: 26,
  UA: 29,
  VG: 24,
  XK: 20,
};

/** Documentation examples (ECB, Wikipedia, bank guides) quoted as such. */
const EXAMPLE_IBANS = new Set([
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'GB29NWBK60161331926819',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'ES9121000418450200051332',
  'CH9300762011623852957',
  'BE68539007547034',
]);

export function ibanValid(compact: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact)) return false;
  if (IBAN_LENGTHS[compact.slice(0, 2)] !== compact.length) return false;
  const moved = compact.slice(4) + compact.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    rest = value >= 10 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97;
  }
  return rest === 1;
}

/** An IBAN as written (compact, or in groups of four). */
export function isIban(written: string): boolean {
  const compact = written.replace(/ /g, '');
  return !EXAMPLE_IBANS.has(compact) && ibanValid(compact);
}

/**
 * IBANs as a pattern: per country its exact length, compact or in groups of four, so a word after
 * the number ("... 0130 00 EUR") is never taken into it.
 */
export function ibanSource(): string {
  const byLength = new Map<number, string[]>();
  for (const [country, length] of Object.entries(IBAN_LENGTHS)) byLength.set(length, [...(byLength.get(length) ?? []), country]);
  const alternatives = [...byLength].map(([length, countries]) => `(?:${countries.join('|')})\\d{2}(?: ?[A-Z0-9]){${length - 4}}`);
  return `(?<![A-Za-z0-9])(?:${alternatives.join('|')})(?![A-Za-z0-9])`;
}
