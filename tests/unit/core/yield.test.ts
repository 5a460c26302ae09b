import { describe, expect, it } from 'vitest';
import { Yielder, yieldToEventLoop } from '../../../src/lib/core/jobs/yield';

describe('yieldToEventLoop', () => {
  it('lets a task queued before it run first (a promise chain alone would not)', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('task'));
    await Promise.resolve();
    expect(order).toEqual([]);
    await yieldToEventLoop();
    order.push('after yield');
    expect(order).toEqual(['task', 'after yield']);
  });
});

describe('Yielder', () => {
  it('yields only once its interval of work has passed', async () => {
    let now = 0;
    const yielder = new Yielder(10, () => now);
    const ran: number[] = [];
    const probe = () => setImmediate(() => ran.push(now));
    probe();
    now = 9;
    await yielder.maybe(); // 9 ms of work: no yield, the task waits
    expect(ran).toEqual([]);
    now = 10;
    await yielder.maybe(); // 10 ms: yields, the task runs
    expect(ran).toEqual([10]);
    probe();
    now = 15;
    await yielder.maybe(); // 5 ms since the yield: none
    expect(ran).toEqual([10]);
    now = 25;
    await yielder.maybe();
    expect(ran).toEqual([10, 25]);
  });
});
