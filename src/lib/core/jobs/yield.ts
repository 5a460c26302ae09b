/**
 * Lets the tasks queued behind the running one run (database callbacks, messages from other
 * threads), then resumes. A promise chain that never waits for a task keeps them all waiting: a
 * stream read whose bytes are already buffered resolves as a microtask, so an import's parse loop
 * could hold its thread for as long as the buffer lasted while the writes it queued sat unanswered
 * (issue 19).
 *
 * A posted message rather than `setTimeout(0)`, which browsers clamp to 4 ms once nested, and
 * rather than `scheduler.yield()`, whose continuation runs ahead of the very tasks it should let
 * through.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A yield at most every `everyMs` of the caller's own work: call `maybe()` between units of work.
 * The interval keeps the yields' cost (a task hop each) small against the work between them.
 */
export class Yielder {
  private last: number;

  constructor(
    private readonly everyMs = 10,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.last = now();
  }

  async maybe(): Promise<void> {
    if (this.now() - this.last < this.everyMs) return;
    await yieldToEventLoop();
    this.last = this.now();
  }
}
