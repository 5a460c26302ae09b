/**
 * Characters a reader cannot see but a model reads: Unicode tag characters (U+E0000-E007F, which
 * spell invisible ASCII: "ASCII smuggling"), zero-width characters, bidi embedding / override /
 * isolate controls ("Trojan Source") and runs of variation selectors (data hidden in
 * selectors). They are stripped (write time, read time) or made visible (for showing a person
 * what was there), and counted.
 *
 * Legitimate uses are kept: tag sequences of subdivision flags (🏴 + tags), ZWJ / ZWNJ between
 * non-ASCII letters or emoji (emoji families, Persian and Indic orthography), a single variation
 * selector (❤️, CJK variants) and the plain LRM / RLM / ALM marks of right-to-left writing.
 */

export type HiddenKind = 'tag' | 'zero-width' | 'bidi' | 'variation-selector' | 'invisible';

export interface HiddenTextResult {
  text: string;
  /** Characters removed (or marked) in all. */
  removed: number;
  byKind: Partial<Record<HiddenKind, number>>;
  /** The ASCII that tag characters spelled, if any: checked for injection by the caller. */
  smuggled: string;
}

const BLACK_FLAG = 0x1f3f4;
const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const ZERO_WIDTH = new Set([0x200b, 0x2060, 0xfeff, 0x180e, 0x2061, 0x2062, 0x2063, 0x2064]);
const JOINERS = new Set([0x200c, 0x200d]);
const BIDI = new Set([0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const INVISIBLE = new Set([0x00ad, 0x115f, 0x1160, 0x3164, 0xffa0, 0x034f]);

/** Letters of non-Latin scripts and pictographs: the neighbours that make ZWJ / ZWNJ meaningful. */
const JOINABLE = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]|(?![\p{Script=Latin}\p{Script=Common}])[\p{L}\p{M}]/u;

function kindOf(cps: readonly number[], i: number): HiddenKind | null {
  const cp = cps[i]!;
  if (isTag(cp)) {
    // A subdivision flag: black flag, tag letters/digits, cancel tag. Walk back to its start.
    let j = i;
    while (j > 0 && isTag(cps[j - 1]!)) j--;
    return j > 0 && cps[j - 1] === BLACK_FLAG ? null : 'tag';
  }
  if (ZERO_WIDTH.has(cp)) return 'zero-width';
  if (JOINERS.has(cp)) {
    const before = i > 0 ? String.fromCodePoint(cps[i - 1]!) : '';
    const after = i + 1 < cps.length ? String.fromCodePoint(cps[i + 1]!) : '';
    return JOINABLE.test(before) && (JOINABLE.test(after) || isVariationSelector(cps[i + 1] ?? 0)) ? null : 'zero-width';
  }
  if (BIDI.has(cp)) return 'bidi';
  if (INVISIBLE.has(cp)) return 'invisible';
  if (isVariationSelector(cp)) {
    const inRun = (i > 0 && isVariationSelector(cps[i - 1]!)) || (i + 1 < cps.length && isVariationSelector(cps[i + 1]!));
    return inRun ? 'variation-selector' : null;
  }
  return null;
}

/**
 * Quick check so clean text (nearly all of it) skips the per-character walk. Combining characters
 * (U+034F, U+200D, the selectors) stand alone in the alternation: inside a class next to other
 * characters they would read as one combined character.
 */
const SUSPECT =
  /[\u00ad\u115f\u1160\u180e\u200b\u200c\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]|\u034f|\u200d|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/u;

/**
 * @param mode `strip` removes the characters; `visible` replaces each with `[U+XXXX]` so a person
 *   can see what was hidden.
 */
export function stripHiddenText(text: string, mode: 'strip' | 'visible' = 'strip'): HiddenTextResult {
  if (!SUSPECT.test(text)) return { text, removed: 0, byKind: {}, smuggled: '' };
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const out: string[] = [];
  const byKind: Partial<Record<HiddenKind, number>> = {};
  let removed = 0;
  let smuggled = '';
  cps.forEach((cp, i) => {
    const kind = kindOf(cps, i);
    if (kind === null) {
      out.push(String.fromCodePoint(cp));
      return;
    }
    removed++;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (kind === 'tag' && cp >= 0xe0020 && cp <= 0xe007e) smuggled += String.fromCharCode(cp - 0xe0000);
    if (mode === 'visible') out.push(`[U+${cp.toString(16).toUpperCase().padStart(4, '0')}]`);
  });
  return { text: out.join(''), removed, byKind, smuggled };
}
