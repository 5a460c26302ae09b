import { describe, expect, it } from 'vitest';
import { INSTALL_SNOOZE_MS, shouldOfferInstall, type InstallOfferState } from '../../../src/lib/core/install/offer';

const base: InstallOfferState = { installable: true, installed: false, moments: ['import'], dismissedAt: null, now: 1_000_000_000_000 };

describe('shouldOfferInstall', () => {
  it('offers after a useful moment when the browser can install', () => {
    expect(shouldOfferInstall(base)).toBe(true);
    expect(shouldOfferInstall({ ...base, moments: ['copy'] })).toBe(true);
  });

  it('never on a first look, when not installable, or when already installed', () => {
    expect(shouldOfferInstall({ ...base, moments: [] })).toBe(false);
    expect(shouldOfferInstall({ ...base, installable: false })).toBe(false);
    expect(shouldOfferInstall({ ...base, installed: true })).toBe(false);
  });

  it('holds "Not now" for 30 days', () => {
    expect(shouldOfferInstall({ ...base, dismissedAt: base.now - INSTALL_SNOOZE_MS + 1 })).toBe(false);
    expect(shouldOfferInstall({ ...base, dismissedAt: base.now - INSTALL_SNOOZE_MS })).toBe(true);
  });
});
