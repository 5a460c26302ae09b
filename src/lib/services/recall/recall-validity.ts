/**
 * Validity horizons at read time: a note whose stated horizon has passed ("this week", "until
 * May 3") leaves the package, and the funnel panel lists it with stage `validity` and the marker
 * (what it said, when that ended). Run before the person's pins, so a pin still brings it back.
 */
import { expiryMarker, isExpired } from '../../core/curate/validity';
import { accessWrites } from '../../core/recall/scoring';
import type { DroppedCandidate, RecallResult } from '../../core/recall/types';
import { EMPTY_MESSAGES } from '../../core/recall/funnel';

export function dropExpired(result: RecallResult, now: number): RecallResult {
  const expired: DroppedCandidate[] = [];
  const items = result.items.filter((item) => {
    const horizon = item.record.validity;
    if (!horizon || !isExpired(horizon, now)) return true;
    expired.push({ candidate: item, stage: 'validity', reason: `No longer valid: it ${expiryMarker(horizon)}.` });
    return false;
  });
  if (expired.length === 0) return result;
  const holdsNothing =
    items.length === 0 && result.holdsNothing === null
      ? {
          emptyAt: 'validity' as const,
          message: EMPTY_MESSAGES.validity,
          closestMisses: expired.slice(0, 3),
        }
      : result.holdsNothing;
  return { ...result, items, dropped: [...result.dropped, ...expired], holdsNothing, accessWrites: accessWrites(items, now) };
}
