import { describe, expect, it, vi } from 'vitest';
import { clampTemperature, withDeadline } from '../../../src/lib/models/llm-deadline';

describe('temperature', () => {
  it('is clamped to 0 - 0.1', () => {
    expect([-1, 0, 0.05, 0.1, 0.7, Number.NaN].map(clampTemperature)).toEqual([0, 0, 0.05, 0.1, 0.1, 0]);
  });
});

describe('withDeadline', () => {
  it('resolves with the work result', async () => {
    await expect(withDeadline(async () => 'ok', { timeoutMs: 100 })).resolves.toBe('ok');
  });

  it('gives up after the timeout with llm/timeout, aborting the inner signal and calling onGiveUp', async () => {
    const onGiveUp = vi.fn();
    let inner: AbortSignal | undefined;
    const call = withDeadline(
      (signal) => {
        inner = signal;
        return new Promise<string>(() => undefined);
      },
      { timeoutMs: 20, onGiveUp, label: 'The test model' },
    );
    await expect(call).rejects.toMatchObject({ code: 'llm/timeout' });
    expect(onGiveUp).toHaveBeenCalledWith('timeout');
    expect(inner?.aborted).toBe(true);
  });

  it('gives up on abort with llm/cancelled, and refuses an already aborted signal', async () => {
    const controller = new AbortController();
    const onGiveUp = vi.fn();
    const call = withDeadline(() => new Promise<string>(() => undefined), { timeoutMs: 5_000, signal: controller.signal, onGiveUp });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'llm/cancelled' });
    expect(onGiveUp).toHaveBeenCalledWith('cancelled');
    await expect(withDeadline(async () => 'x', { signal: controller.signal })).rejects.toMatchObject({ code: 'llm/cancelled' });
  });

  it('passes the work error through', async () => {
    await expect(withDeadline(() => Promise.reject(new Error('boom')), { timeoutMs: 100 })).rejects.toThrow('boom');
  });
});
