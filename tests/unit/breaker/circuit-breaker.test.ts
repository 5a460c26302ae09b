import { describe, expect, it } from 'vitest';
import { BREAKER_DEFAULTS, CircuitBreaker, breakerMessage } from '../../../src/lib/core/breaker/circuit-breaker';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function breaker(clock = fakeClock()) {
  return { clock, b: new CircuitBreaker('fit-gate', { now: clock.now }) };
}

const fail = (b: CircuitBreaker, n: number, why = 'timeout') => {
  for (let i = 0; i < n; i++) {
    const admission = b.admit();
    expect(admission.allowed).toBe(true);
    b.failed(why);
  }
};

describe('CircuitBreaker', () => {
  it('uses the seeds: 3 consecutive failures open it for 600 s', () => {
    expect(BREAKER_DEFAULTS).toEqual({ failureThreshold: 3, recoveryMs: 600_000 });
  });

  it('stays closed below the threshold and a success resets the count', () => {
    const { b } = breaker();
    fail(b, 2);
    expect(b.status().state).toBe('closed');
    expect(b.status().consecutiveFailures).toBe(2);
    expect(b.admit().allowed).toBe(true);
    b.succeeded();
    expect(b.status().consecutiveFailures).toBe(0);
    fail(b, 2);
    expect(b.status().state).toBe('closed');
  });

  it('opens on the third failure in a row and refuses calls until the recovery period ends', () => {
    const { b, clock } = breaker();
    fail(b, 3, 'no answer within 15000 ms');
    const status = b.status();
    expect(status.state).toBe('open');
    expect(status.retryAt).toBe(clock.now() + 600_000);
    expect(status.lastFailure).toBe('no answer within 15000 ms');
    expect(status.timesOpened).toBe(1);
    const refused = b.admit();
    expect(refused).toMatchObject({ allowed: false, retryAt: clock.now() + 600_000 });
    clock.advance(599_999);
    expect(b.admit().allowed).toBe(false);
  });

  it('lets exactly one probe through after the recovery period (half-open); others wait for it', () => {
    const { b, clock } = breaker();
    fail(b, 3);
    clock.advance(600_000);
    const probe = b.admit();
    expect(probe).toEqual({ allowed: true, probe: true });
    expect(b.status().state).toBe('half-open');
    expect(b.admit().allowed).toBe(false);
    expect(b.admit().allowed).toBe(false);
  });

  it('closes when the probe succeeds', () => {
    const { b, clock } = breaker();
    fail(b, 3);
    clock.advance(600_000);
    expect(b.admit()).toEqual({ allowed: true, probe: true });
    b.succeeded();
    expect(b.status()).toMatchObject({ state: 'closed', consecutiveFailures: 0, retryAt: null });
    expect(b.admit()).toEqual({ allowed: true, probe: false });
  });

  it('opens again for a full period when the probe fails', () => {
    const { b, clock } = breaker();
    fail(b, 3);
    clock.advance(600_000);
    b.admit();
    b.failed('still down');
    const status = b.status();
    expect(status.state).toBe('open');
    expect(status.retryAt).toBe(clock.now() + 600_000);
    expect(status.timesOpened).toBe(2);
    expect(b.admit().allowed).toBe(false);
  });

  it('a probe that ends neither way (cancelled) frees the probe slot for the next call', () => {
    const { b, clock } = breaker();
    fail(b, 3);
    clock.advance(600_000);
    expect(b.admit()).toEqual({ allowed: true, probe: true });
    b.released();
    expect(b.admit()).toEqual({ allowed: true, probe: true });
  });

  it('a cancelled call in the closed state counts neither as a failure nor as a success', () => {
    const { b } = breaker();
    fail(b, 2);
    b.admit();
    b.released();
    expect(b.status().consecutiveFailures).toBe(2);
    fail(b, 1);
    expect(b.status().state).toBe('open');
  });

  it('takes its threshold and recovery period as options', () => {
    const clock = fakeClock();
    const b = new CircuitBreaker('rerank', { now: clock.now, failureThreshold: 1, recoveryMs: 1_000 });
    fail(b, 1);
    expect(b.status()).toMatchObject({ stage: 'rerank', state: 'open', retryAt: clock.now() + 1_000 });
    clock.advance(1_000);
    expect(b.admit()).toEqual({ allowed: true, probe: true });
  });

  it('reset() closes it (a new model was lent)', () => {
    const { b } = breaker();
    fail(b, 3);
    b.reset();
    expect(b.status()).toMatchObject({ state: 'closed', consecutiveFailures: 0, retryAt: null, lastFailure: null });
  });

  it('says when it will retry, in words', () => {
    const { b, clock } = breaker();
    expect(breakerMessage(b.status(), clock.now())).toBeNull();
    fail(b, 3, 'HTTP 500');
    const text = breakerMessage(b.status(), clock.now());
    expect(text).toContain('fit-gate');
    expect(text).toContain('3 failures in a row');
    expect(text).toContain('HTTP 500');
    expect(text).toContain('retries in 10 min');
    clock.advance(570_000);
    expect(breakerMessage(b.status(), clock.now())).toContain('retries in 30 s');
    clock.advance(30_000);
    expect(breakerMessage(b.status(), clock.now())).toContain('the next call probes it');
  });
});
