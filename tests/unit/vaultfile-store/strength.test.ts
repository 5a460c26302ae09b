/**
 * Passphrase strength by zxcvbn-ts with its dictionaries (issue 14, item 6): "password" refused,
 * "P@ssw0rd2024" not rated strong (refused), random words accepted; a generated passphrase is
 * strong and uses every word of its list with equal chance.
 */
import { describe, expect, it } from 'vitest';
import { assessPassphrase, generatePassphrase, GENERATED_WORDS } from '../../../src/lib/core/passphrase/strength';

describe('passphrase strength (zxcvbn-ts)', () => {
  it.each([
    ['short', 'too-short', false],
    ['password', 'weak', false],
    ['P@ssw0rd2024', 'weak', false],
    ['aaaaaaaaaaaa', 'weak', false],
    ['Garden#42x', 'weak', false],
    ['engramvault2024', 'weak', false],
    ['maple moss lantern bridge', 'strong', true],
    ['庭園の苔と石灯籠の道', 'fair', true],
  ] as const)('%j is %s (acceptable: %s)', async (passphrase, strength, acceptable) => {
    const hint = await assessPassphrase(passphrase);
    expect(hint.strength).toBe(strength);
    expect(hint.acceptable).toBe(acceptable);
    if (!acceptable) expect(hint.message).toMatch(/at least 8 characters|Too easy to guess/u);
  });

  it('generates a strong passphrase of random common words', async () => {
    const { passphrase, bits } = await generatePassphrase((n) => crypto.getRandomValues(new Uint32Array(n)));
    expect(passphrase.split('-')).toHaveLength(GENERATED_WORDS);
    expect(bits).toBeGreaterThanOrEqual(75);
    expect((await assessPassphrase(passphrase)).strength).toBe('strong');
  });

  it('draws words by rejection sampling: a value past the last whole multiple of the list is skipped', async () => {
    const source = (values: number[]) => {
      let at = 0;
      return (n: number) => Uint32Array.from({ length: n }, () => values[at++ % values.length]!);
    };
    const plain = await generatePassphrase(source([0, 1, 2, 3, 4, 5]));
    const withRejects = await generatePassphrase(source([0xffffffff, 0, 0xfffffffe, 1, 2, 3, 4, 5]));
    expect(withRejects.passphrase).toBe(plain.passphrase);
    expect(new Set(plain.passphrase.split('-')).size).toBe(GENERATED_WORDS);
  });
});
