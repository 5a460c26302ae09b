/**
 * Validity horizons: a note that states how long it holds ("this week", "until the release", "until
 * 3 May") leaves default retrieval once that time has passed (recall drops it with the reason; the
 * Notes screen marks it). Read from the text against when it was said (the note's conversation date),
 * in UTC days. An event with no date ("until the release") gets an assumed horizon, and the marker
 * says it was assumed. "Until further notice" states no horizon, and neither does a period in a
 * report of something done ("Melanie went to the museum this week" stays true after the week).
 */
const DAY_MS = 86_400_000;

/** How long an event horizon ("until the release") is taken to last: a quarter. */
export const EVENT_HORIZON_MS = 90 * DAY_MS;

export interface ValidityHorizon {
  /** Last moment the note holds (ms since epoch). */
  until: number;
  /** The words that stated it. */
  phrase: string;
  /** True for an event horizon whose length was assumed. */
  assumed: boolean;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTH = `(${MONTHS.join('|')}|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const BOUND = '(?:until|till|til|through|thru|by)';

const endOfDay = (y: number, m: number, d: number): number => Date.UTC(y, m, d + 1) - 1;

function dayParts(at: number): { y: number; m: number; d: number; weekday: number } {
  const date = new Date(at);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth(), d: date.getUTCDate(), weekday: date.getUTCDay() };
}

function monthIndex(name: string): number {
  return MONTHS.findIndex((m) => m.startsWith(name.slice(0, 3)));
}

/** The end of day (y, m, d); without a year, the first such day on or after `said`. */
function dateEnd(said: number, m: number, d: number, year: number | null): number | null {
  if (m < 0 || d < 1 || d > 31) return null;
  if (year !== null) return endOfDay(year, m, d);
  const { y } = dayParts(said);
  const thisYear = endOfDay(y, m, d);
  return thisYear >= said ? thisYear : endOfDay(y + 1, m, d);
}

function explicitDate(text: string, said: number): ValidityHorizon | null {
  const iso = new RegExp(`\\b${BOUND}\\s+(\\d{4})-(\\d{2})-(\\d{2})\\b`, 'u').exec(text);
  if (iso) {
    const until = dateEnd(said, Number(iso[2]) - 1, Number(iso[3]), Number(iso[1]));
    if (until !== null) return { until, phrase: iso[0], assumed: false };
  }
  const monthFirst = new RegExp(`\\b${BOUND}\\s+${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, 'u').exec(text);
  if (monthFirst) {
    const until = dateEnd(said, monthIndex(monthFirst[1]!), Number(monthFirst[2]), monthFirst[3] ? Number(monthFirst[3]) : null);
    if (until !== null) return { until, phrase: monthFirst[0], assumed: false };
  }
  const dayFirst = new RegExp(
    `\\b${BOUND}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}(?:,?\\s+(\\d{4}))?\\b`,
    'u',
  ).exec(text);
  if (dayFirst) {
    const until = dateEnd(said, monthIndex(dayFirst[2]!), Number(dayFirst[1]), dayFirst[3] ? Number(dayFirst[3]) : null);
    if (until !== null) return { until, phrase: dayFirst[0], assumed: false };
  }
  const weekday = new RegExp(`\\b${BOUND}\\s+(?:next\\s+)?(${WEEKDAYS.join('|')})\\b`, 'u').exec(text);
  if (weekday) {
    const { y, m, d, weekday: today } = dayParts(said);
    const ahead = (WEEKDAYS.indexOf(weekday[1]!) - today + 7) % 7;
    return { until: endOfDay(y, m, d + ahead), phrase: weekday[0], assumed: false };
  }
  return null;
}

/** A report of something done ("I ran 5 km today") is not a state that ends: past tense rules a period out. */
const PAST = /\b(?:was|were|did|had|went|got|made|met|saw|ran|came|took|gave|told|said|bought|found|left|began|won|lost|wrote)\b/u;
/** A regular past form ("attended"), not the participle of a state ("is closed", "are booked"). */
const REGULAR_PAST = /(?<!\b(?:is|are|be|been|being|am|stays|stay|remains|remain|gets|get)\s+)\b[a-z]{2,}ed\b/u;

function relativePeriod(text: string, said: number): ValidityHorizon | null {
  if (PAST.test(text) || REGULAR_PAST.test(text)) return null;
  const match = /\b(today|tonight|tomorrow|this weekend|this week|next week|this month|next month|this year)\b/u.exec(text);
  if (!match) return null;
  const { y, m, d, weekday } = dayParts(said);
  const toSunday = (7 - weekday) % 7;
  const phrase = match[1]!;
  const until: Record<string, number> = {
    today: endOfDay(y, m, d),
    tonight: endOfDay(y, m, d),
    tomorrow: endOfDay(y, m, d + 1),
    'this weekend': endOfDay(y, m, d + toSunday),
    'this week': endOfDay(y, m, d + toSunday),
    'next week': endOfDay(y, m, d + toSunday + 7),
    'this month': Date.UTC(y, m + 1, 1) - 1,
    'next month': Date.UTC(y, m + 2, 1) - 1,
    'this year': Date.UTC(y + 1, 0, 1) - 1,
  };
  return { until: until[phrase]!, phrase, assumed: false };
}

function eventHorizon(text: string, said: number): ValidityHorizon | null {
  const match = /\b(?:until|till)\s+(?:the|our|my|we|i|it)\s+[a-z]+(?:\s+[a-z]+)?/u.exec(text);
  if (!match || /\buntil\s+further\s+notice\b/u.test(text)) return null;
  return { until: said + EVENT_HORIZON_MS, phrase: match[0].split(/\s+/u).slice(0, 3).join(' '), assumed: true };
}

/** The horizon the text states, read against `said` (ms since epoch); null when it states none. */
export function validityHorizon(text: string, said: number): ValidityHorizon | null {
  const lower = text.toLowerCase();
  if (/\buntil\s+further\s+notice\b/u.test(lower)) return null;
  return explicitDate(lower, said) ?? relativePeriod(lower, said) ?? eventHorizon(lower, said);
}

export function isExpired(horizon: ValidityHorizon | null | undefined, now: number): boolean {
  return horizon !== null && horizon !== undefined && now > horizon.until;
}

/** The marker shown with an expired note. */
export function expiryMarker(horizon: ValidityHorizon): string {
  const date = new Date(horizon.until).toISOString().slice(0, 10);
  return horizon.assumed
    ? `held "${horizon.phrase}"; assumed to end by ${date} (no date was given)`
    : `held "${horizon.phrase}", which ended ${date}`;
}
