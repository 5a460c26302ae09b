import { describe, expect, it } from 'vitest';
import { passphraseStrength } from '../../../src/lib/client/vault-file-strength';

describe('passphrase strength hint', () => {
  it('refuses short passphrases and ranks the rest', () => {
    expect(passphraseStrength('short').strength).toBe('too-short');
    expect(passphraseStrength('aaaaaaaaaa').strength).toBe('weak');
    expect(passphraseStrength('abcdefgh12').strength).toBe('weak');
    expect(passphraseStrength('password').strength).toBe('weak');
    expect(passphraseStrength('Garden#42x').strength).toBe('fair');
    expect(passphraseStrength('maple moss lantern bridge').strength).toBe('strong');
    expect(passphraseStrength('庭園の苔と石灯籠の道').strength).toBe('strong');
  });
});
