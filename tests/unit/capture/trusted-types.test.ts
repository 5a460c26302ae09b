/** The Trusted Types default policy (src/lib/trusted-types.ts): what it lets through and what it refuses. */
import { describe, expect, it } from 'vitest';
import { allowedScriptUrl, installDefaultPolicy } from '../../../src/lib/trusted-types';

const ORIGIN = 'https://vault.example';

function fakeFactory() {
  const policies = new Map<string, Record<string, (input: string) => string>>();
  return {
    policies,
    factory: {
      createPolicy(name: string, rules: Record<string, (input: string) => string>) {
        policies.set(name, rules);
        return rules;
      },
      get defaultPolicy() {
        return policies.get('default') ?? null;
      },
    },
  };
}

describe('Trusted Types default policy', () => {
  it('allows scripts only from this origin or its own blob: URLs', () => {
    expect(allowedScriptUrl('/_app/immutable/workers/vault.worker-abc.js', ORIGIN)).toBe(true);
    expect(allowedScriptUrl(`${ORIGIN}/service-worker.js`, ORIGIN)).toBe(true);
    expect(allowedScriptUrl(`blob:${ORIGIN}/8c1d-4e`, ORIGIN)).toBe(true);
    expect(allowedScriptUrl('https://evil.example/x.js', ORIGIN)).toBe(false);
    expect(allowedScriptUrl('blob:https://evil.example/8c1d', ORIGIN)).toBe(false);
    expect(allowedScriptUrl('data:text/javascript,alert(1)', ORIGIN)).toBe(false);
    expect(allowedScriptUrl('javascript:alert(1)', ORIGIN)).toBe(false);
  });

  it('is installed once, refuses script text and HTML strings, and passes allowed script URLs through', () => {
    const { factory, policies } = fakeFactory();
    expect(installDefaultPolicy({ trustedTypes: factory, location: { origin: ORIGIN } })).toBe(true);
    expect(installDefaultPolicy({ trustedTypes: factory, location: { origin: ORIGIN } })).toBe(false);
    const policy = policies.get('default')!;
    expect(policy.createScriptURL!('/w.js')).toBe('/w.js');
    expect(() => policy.createScriptURL!('https://evil.example/w.js')).toThrow(TypeError);
    expect(() => policy.createScript!('alert(1)')).toThrow(/code from a string was refused/u);
    expect(() => policy.createHTML!('<img src=x onerror=alert(1)>')).toThrow(/HTML from a string was refused/u);
    expect(installDefaultPolicy({ location: { origin: ORIGIN } })).toBe(false);
  });
});
