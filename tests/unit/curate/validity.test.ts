import { describe, expect, it } from 'vitest';
import { isExpired, validityHorizon, EVENT_HORIZON_MS } from '../../../src/lib/core/curate/validity';

const DAY = 86_400_000;
// Wednesday 12 March 2025, 10:00 UTC.
const SAID = Date.UTC(2025, 2, 12, 10);
const endOf = (y: number, m: number, d: number) => Date.UTC(y, m, d + 1) - 1;

describe('validity horizons', () => {
  it('reads relative periods from when the note was said', () => {
    expect(validityHorizon('I am working from the cabin this week.', SAID)).toMatchObject({
      until: endOf(2025, 2, 16),
      phrase: 'this week',
      assumed: false,
    });
    expect(validityHorizon('The office is closed today.', SAID)?.until).toBe(endOf(2025, 2, 12));
    expect(validityHorizon('Call the plumber tomorrow.', SAID)?.until).toBe(endOf(2025, 2, 13));
    expect(validityHorizon('The gym is free this month.', SAID)?.until).toBe(endOf(2025, 2, 31));
    expect(validityHorizon('Budget is frozen this year.', SAID)?.until).toBe(endOf(2025, 11, 31));
    expect(validityHorizon('We are on call next week.', SAID)?.until).toBe(endOf(2025, 2, 23));
  });

  it('reads explicit dates after until, till, through and by', () => {
    expect(validityHorizon('The trial runs until 2025-04-30.', SAID)?.until).toBe(endOf(2025, 3, 30));
    expect(validityHorizon('Use the old API until May 3.', SAID)?.until).toBe(endOf(2025, 4, 3));
    expect(validityHorizon('The discount holds through 3 June 2026.', SAID)?.until).toBe(endOf(2026, 5, 3));
    // A date without a year that already passed this year means next year's.
    expect(validityHorizon('Stay at the flat until January 10.', SAID)?.until).toBe(endOf(2026, 0, 10));
    expect(validityHorizon('Send the invoice by Friday.', SAID)?.until).toBe(endOf(2025, 2, 14));
  });

  it('gives an event horizon an assumed length and says so', () => {
    const horizon = validityHorizon('Freeze the schema until the release.', SAID);
    expect(horizon).toMatchObject({ phrase: 'until the release', assumed: true, until: SAID + EVENT_HORIZON_MS });
  });

  it('finds no horizon where none is stated', () => {
    for (const text of [
      'Prune Japanese maples in late winter.',
      'The week has seven days.',
      'We met on Friday.',
      'Keep the price at €89 until further notice.',
      // Reports of something done stay true after the period.
      'I ran 5 km today.',
      'Melanie went to the museum this week.',
      'Caroline attended a support group this month.',
    ]) {
      expect(validityHorizon(text, SAID), text).toBeNull();
    }
  });

  it('expires only after the horizon', () => {
    const horizon = validityHorizon('I am working from the cabin this week.', SAID)!;
    expect(isExpired(horizon, horizon.until)).toBe(false);
    expect(isExpired(horizon, horizon.until + 1)).toBe(true);
    expect(isExpired(null, SAID + 1000 * DAY)).toBe(false);
  });
});
