/**
 * Dates and numbers in the person's locale: the one place the UI formats them. Pure: the locale
 * (and, for tests, the time zone) come in as parameters; `src/lib/ui/format.ts` builds the app's
 * instance from the browser's languages. Unit words (KB, min, tokens) stay as the app writes them;
 * digits, separators, month names and date order follow the locale.
 */

export interface LocaleFormat {
  /** The resolved locale, e.g. "de-DE". */
  readonly locale: string;
  /** 3,072 / 3.072 / 3 072 */
  integer(n: number): string;
  /** A number with exactly `digits` fraction digits. */
  fixed(n: number, digits: number): string;
  /** A share (0-1) as a percentage. */
  percent(fraction: number, digits?: number): string;
  /** Bytes as B / KB / MB / GB / TB (binary multiples), "unknown" for null. */
  bytes(bytes: number | null): string;
  /** "3 min 20 s" style, "estimating…" for null. */
  duration(ms: number | null): string;
  /** A calendar date: 5 Mar 2024 / Mar 5, 2024 / 05.03.2024. */
  date(ms: number): string;
  /** Date and time of day. */
  dateTime(ms: number): string;
  /** Month and year: "Mar 2024". */
  month(ms: number): string;
  /**
   * A number and an English noun that agrees with it: "1 kept note", "3,072 kept notes". The words
   * are English (the app's), so the choice follows English; the digits follow the locale.
   */
  count(n: number, singular: string, plural?: string): string;
}

export interface LocaleFormatOptions {
  /** IANA time zone; the runtime's own when absent. */
  timeZone?: string;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

function supported(locales: string | readonly string[] | undefined): string | string[] | undefined {
  const list = (typeof locales === 'string' ? [locales] : [...(locales ?? [])]).filter((l) => {
    try {
      return Intl.NumberFormat.supportedLocalesOf([l]).length > 0;
    } catch {
      return false; // a malformed tag (navigator.languages can hold anything a person typed)
    }
  });
  return list.length > 0 ? list : undefined;
}

export function localeFormat(locales?: string | readonly string[], options: LocaleFormatOptions = {}): LocaleFormat {
  const loc = supported(locales);
  const tz = options.timeZone ? { timeZone: options.timeZone } : {};
  const integerFormat = new Intl.NumberFormat(loc, { maximumFractionDigits: 0 });
  const fixedFormats = new Map<number, Intl.NumberFormat>();
  const fixedFormat = (digits: number) => {
    let f = fixedFormats.get(digits);
    if (!f) {
      f = new Intl.NumberFormat(loc, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      fixedFormats.set(digits, f);
    }
    return f;
  };
  const dateFormat = new Intl.DateTimeFormat(loc, { dateStyle: 'medium', ...tz });
  const dateTimeFormat = new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short', ...tz });
  const monthFormat = new Intl.DateTimeFormat(loc, { month: 'short', year: 'numeric', ...tz });
  const fixed = (n: number, digits: number) => fixedFormat(digits).format(n);

  return {
    locale: integerFormat.resolvedOptions().locale,
    integer: (n) => integerFormat.format(n),
    fixed,
    percent: (fraction, digits = 0) =>
      new Intl.NumberFormat(loc, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction),
    bytes(bytes) {
      if (bytes === null || !Number.isFinite(bytes)) return 'unknown';
      let value = bytes;
      let unit = 0;
      while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
        value /= 1024;
        unit++;
      }
      return `${fixed(value, value >= 10 || unit === 0 ? 0 : 1)} ${BYTE_UNITS[unit]}`;
    },
    duration(ms) {
      if (ms === null || !Number.isFinite(ms)) return 'estimating…';
      const seconds = Math.max(0, Math.round(ms / 1000));
      const n = (v: number) => integerFormat.format(v);
      if (seconds < 60) return `${n(seconds)} s`;
      const minutes = Math.floor(seconds / 60);
      if (minutes < 60) return `${n(minutes)} min ${n(seconds % 60)} s`;
      return `${n(Math.floor(minutes / 60))} h ${n(minutes % 60)} min`;
    },
    date: (ms) => dateFormat.format(ms),
    dateTime: (ms) => dateTimeFormat.format(ms),
    month: (ms) => monthFormat.format(ms),
    count: (n, singular, plural = `${singular}s`) => `${integerFormat.format(n)} ${n === 1 ? singular : plural}`,
  };
}
