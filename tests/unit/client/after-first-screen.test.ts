import { describe, expect, it } from 'vitest';
import { afterFirstScreen, type IdleWindow } from '../../../src/lib/client/after-first-screen';

/** A window whose timers and idle callbacks run only when the test says so. */
function fakeWindow(withIdle = true) {
  const timers: { fn: () => void; ms: number }[] = [];
  const idle: { fn: () => void; timeout: number | undefined }[] = [];
  const win: IdleWindow = {
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    ...(withIdle
      ? { requestIdleCallback: (fn: () => void, options?: { timeout: number }) => idle.push({ fn, timeout: options?.timeout }) }
      : {}),
  };
  return { win, timers, idle };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('afterFirstScreen', () => {
  it('waits for the first screen, then for an idle moment, and runs the task once', async () => {
    const { win, timers, idle } = fakeWindow();
    let ready!: () => void;
    let runs = 0;
    afterFirstScreen(new Promise<void>((resolve) => (ready = resolve)), () => runs++, win, 2_000, 5_000);
    await settle();
    expect(idle).toHaveLength(0);
    ready();
    await settle();
    expect(idle).toEqual([{ fn: expect.any(Function), timeout: 2_000 }]);
    expect(runs).toBe(0);
    idle[0]!.fn();
    expect(runs).toBe(1);
    // The cap passing later schedules nothing more.
    timers.find((t) => t.ms === 5_000)!.fn();
    expect(idle).toHaveLength(1);
  });

  it('does not wait past the cap for a first screen that is slow, nor forever on one that failed', async () => {
    const slow = fakeWindow();
    let runs = 0;
    afterFirstScreen(new Promise<void>(() => undefined), () => runs++, slow.win, 2_000, 5_000);
    slow.timers.find((t) => t.ms === 5_000)!.fn();
    slow.idle[0]!.fn();
    expect(runs).toBe(1);

    const failed = fakeWindow(false);
    afterFirstScreen(Promise.reject(new Error('index worker failed')), () => runs++, failed.win);
    await settle();
    // Without requestIdleCallback (Safari), a plain timer.
    const timer = failed.timers.find((t) => t.ms === 0);
    expect(timer).toBeDefined();
    timer!.fn();
    expect(runs).toBe(2);
  });
});
