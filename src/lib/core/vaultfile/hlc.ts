/**
 * Hybrid logical clock (Kulkarni et al., "Logical Physical Clocks", 2014): a stamp that follows
 * wall time when clocks behave and still orders causally related events when they do not.
 *
 * String format (sortable as plain strings, so Dexie can index it and merge can compare it with `<`):
 *
 *     WWWWWWWWWWWWW:CCCC:NODE        e.g. 1700000000000:002a:d3v1ce
 *
 * - `W`: logical wall time in Unix milliseconds, 13 decimal digits, zero-padded (good until 2286).
 * - `C`: counter, 4 lowercase hex digits (0..65535), for events within the same millisecond.
 * - `NODE`: the device id, 1-64 characters of [A-Za-z0-9_-]; breaks ties between devices.
 *
 * Because the wall and counter fields have fixed width and ':' sorts below every allowed node
 * character, string order equals the order of the tuple (wall, counter, node). Two stamps are equal
 * only when made by the same node at the same logical instant, i.e. the same event.
 *
 * When more than 65,536 events fall in one logical millisecond (a bulk import stamping 100k rows in
 * a loop does this), the counter does not wrap: the logical wall time moves one millisecond ahead of
 * the physical clock and the counter restarts. Stamps stay strictly increasing and well formed; the
 * logical time catches up with the physical one as soon as the burst ends.
 */

export interface Hlc {
  /** Logical wall time, Unix ms. */
  readonly wall: number;
  /** Events within the same logical millisecond. */
  readonly counter: number;
  /** Device id. */
  readonly node: string;
}

export const HLC_MAX_WALL = 9_999_999_999_999;
/** How far ahead of the local clock a remote stamp may be and still be adopted: one day. */
export const DEFAULT_MAX_DRIFT_MS = 24 * 60 * 60 * 1000;
export const HLC_MAX_COUNTER = 0xffff;
const NODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const HLC_PATTERN = /^(\d{13}):([0-9a-f]{4}):([A-Za-z0-9_-]{1,64})$/;

export function isValidNodeId(node: string): boolean {
  return NODE_PATTERN.test(node);
}

export function encodeHlc(hlc: Hlc): string {
  if (!Number.isSafeInteger(hlc.wall) || hlc.wall < 0 || hlc.wall > HLC_MAX_WALL) {
    throw new RangeError(`HLC wall time out of range: ${hlc.wall}`);
  }
  if (!Number.isInteger(hlc.counter) || hlc.counter < 0 || hlc.counter > HLC_MAX_COUNTER) {
    throw new RangeError(`HLC counter out of range: ${hlc.counter}`);
  }
  if (!isValidNodeId(hlc.node)) throw new RangeError(`HLC node id is not valid: ${JSON.stringify(hlc.node)}`);
  return `${String(hlc.wall).padStart(13, '0')}:${hlc.counter.toString(16).padStart(4, '0')}:${hlc.node}`;
}

/** Parses a stamp; null when it is not in the documented format. */
export function parseHlc(text: string): Hlc | null {
  const match = HLC_PATTERN.exec(text);
  if (!match) return null;
  return { wall: Number(match[1]), counter: parseInt(match[2]!, 16), node: match[3]! };
}

export function isValidHlc(text: unknown): text is string {
  return typeof text === 'string' && HLC_PATTERN.test(text);
}

/** Total order of stamps: negative, zero or positive. Plain string order by construction. */
export function compareHlc(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The wall-time part of a stamp (ms), without a full parse. */
export function hlcWall(text: string): number {
  return Number(text.slice(0, 13));
}

/** The clock of a device before its first event. */
export function initialHlc(node: string): Hlc {
  if (!isValidNodeId(node)) throw new RangeError(`HLC node id is not valid: ${JSON.stringify(node)}`);
  return { wall: 0, counter: 0, node };
}

function advance(wall: number, counter: number, node: string): Hlc {
  if (counter > HLC_MAX_COUNTER) return { wall: wall + 1, counter: 0, node };
  return { wall, counter, node };
}

/**
 * A local event (create, edit, delete): returns the new clock state, which is also the event's stamp.
 * `now` is the physical clock in ms; it may go backwards, the stamp never does.
 */
export function tick(last: Hlc, now: number): Hlc {
  const physical = Math.floor(now);
  if (physical > last.wall) return { wall: physical, counter: 0, node: last.node };
  return advance(last.wall, last.counter + 1, last.node);
}

/**
 * Receiving a stamp made elsewhere (merging a record from another device): the new local state is
 * later than both the local state and the remote stamp, so whatever this device does next is ordered
 * after what it has seen.
 */
export function receive(last: Hlc, remote: Hlc, now: number): Hlc {
  const physical = Math.floor(now);
  const wall = Math.max(last.wall, remote.wall, physical);
  let counter: number;
  if (wall === last.wall && wall === remote.wall) counter = Math.max(last.counter, remote.counter) + 1;
  else if (wall === last.wall) counter = last.counter + 1;
  else if (wall === remote.wall) counter = remote.counter + 1;
  else counter = 0;
  return advance(wall, counter, last.node);
}

/**
 * A mutable clock for one device: keeps its state and stamps events. Time is a parameter so tests
 * (and the store) control it.
 */
export class HybridClock {
  private state: Hlc;

  constructor(
    node: string,
    private readonly now: () => number,
    last?: string,
    /** Remote stamps further ahead of this device's clock than this are not adopted (see observe). */
    private readonly maxDriftMs: number = DEFAULT_MAX_DRIFT_MS,
  ) {
    const parsed = last === undefined ? null : parseHlc(last);
    this.state = parsed ? { ...parsed, node } : initialHlc(node);
  }

  /** Stamp for a local event. */
  stamp(): string {
    this.state = tick(this.state, this.now());
    return encodeHlc(this.state);
  }

  /**
   * Takes note of a stamp from another device. Returns false, and leaves the clock alone, when the
   * stamp is malformed or further in the future than `maxDriftMs`: one device with a wildly wrong
   * clock (or a crafted file) must not drag every later local stamp years ahead. Merge itself only
   * compares stamps, so such a record still merges; it just does not move this clock.
   */
  observe(remote: string): boolean {
    const parsed = parseHlc(remote);
    if (!parsed || parsed.wall > this.now() + this.maxDriftMs) return false;
    this.state = receive(this.state, parsed, this.now());
    return true;
  }

  get current(): string {
    return encodeHlc(this.state);
  }
}
