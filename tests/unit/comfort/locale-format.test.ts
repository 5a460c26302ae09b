import { describe, expect, it } from 'vitest';
import { localeFormat } from '../../../src/lib/core/format/locale-format';

const MARCH_5_2024_1430_UTC = Date.UTC(2024, 2, 5, 14, 30);

describe('localeFormat', () => {
  it('writes numbers with the locale’s separators', () => {
    expect(localeFormat('en-US').integer(3072)).toBe('3,072');
    expect(localeFormat('de-DE').integer(3072)).toBe('3.072');
    expect(localeFormat('de-DE').fixed(0.8765, 3)).toBe('0,877');
    expect(localeFormat('fr-FR').integer(1234567)).toMatch(/^1\s234\s567$/u);
    expect(localeFormat('en-US').percent(0.425)).toBe('43%');
    expect(localeFormat('de-DE').percent(0.425)).toMatch(/^43\s%$/u);
  });

  it('writes dates in the locale’s order and month names, in the given time zone', () => {
    const utc = { timeZone: 'UTC' };
    expect(localeFormat('en-US', utc).date(MARCH_5_2024_1430_UTC)).toBe('Mar 5, 2024');
    expect(localeFormat('en-GB', utc).date(MARCH_5_2024_1430_UTC)).toBe('5 Mar 2024');
    expect(localeFormat('de-DE', utc).date(MARCH_5_2024_1430_UTC)).toBe('05.03.2024');
    expect(localeFormat('de-DE', utc).dateTime(MARCH_5_2024_1430_UTC)).toBe('05.03.2024, 14:30');
    expect(localeFormat('en-US', utc).dateTime(MARCH_5_2024_1430_UTC)).toMatch(/^Mar 5, 2024, 2:30\sPM$/u);
    expect(localeFormat('de-DE', utc).month(MARCH_5_2024_1430_UTC)).toBe('März 2024');
    expect(localeFormat('en-US', { timeZone: 'Pacific/Kiritimati' }).date(Date.UTC(2024, 2, 5, 23, 0))).toBe('Mar 6, 2024');
  });

  it('formats bytes and durations with locale digits and the app’s unit words', () => {
    expect(localeFormat('en-US').bytes(1536)).toBe('1.5 KB');
    expect(localeFormat('de-DE').bytes(1536)).toBe('1,5 KB');
    expect(localeFormat('en-US').bytes(512)).toBe('512 B');
    expect(localeFormat('en-US').bytes(25 * 1024 ** 3)).toBe('25 GB');
    expect(localeFormat('en-US').bytes(null)).toBe('unknown');
    expect(localeFormat('en-US').duration(200_000)).toBe('3 min 20 s');
    expect(localeFormat('en-US').duration(3_725_000)).toBe('1 h 2 min');
    expect(localeFormat('en-US').duration(null)).toBe('estimating…');
  });

  it('counts with an English noun that agrees with the number, digits in the locale', () => {
    expect(localeFormat('en-US').count(1, 'kept note')).toBe('1 kept note');
    expect(localeFormat('en-US').count(0, 'candidate')).toBe('0 candidates');
    expect(localeFormat('de-DE').count(3072, 'conversation')).toBe('3.072 conversations');
    expect(localeFormat('en-US').count(2, 'match', 'matches')).toBe('2 matches');
  });

  it('falls back past malformed or unknown tags to the next usable one', () => {
    expect(localeFormat(['not a tag!!', 'de-DE']).integer(3072)).toBe('3.072');
    expect(localeFormat(['not a tag!!', 'de-DE']).locale).toBe('de-DE');
    expect(() => localeFormat(['!!'])).not.toThrow();
  });
});
