/**
 * Export timestamps come as epoch seconds (ChatGPT, Open WebUI, often with a fraction), epoch
 * milliseconds, ISO 8601 strings with or without an offset (Claude, DeepSeek, Grok, Gemini) and
 * MongoDB extended JSON (`{"$date": {"$numberLong": "..."}}`, Grok). All become integer ms or null.
 */
import { field, isRecord } from './read';

/** Below this an epoch number is taken as seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

export function toMillis(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    return Math.round(value < SECONDS_BELOW ? value * 1000 : value);
  }
  if (typeof value === 'string') {
    const s = value.trim();
    if (s === '') return null;
    if (/^\d+(\.\d+)?$/u.test(s)) return toMillis(Number(s));
    const ms = Date.parse(s);
    return Number.isFinite(ms) ? ms : null;
  }
  if (isRecord(value)) {
    if (Object.hasOwn(value, '$date')) return toMillis(field(value, '$date'));
    if (Object.hasOwn(value, '$numberLong')) return toMillis(field(value, '$numberLong'));
  }
  return null;
}
