import { describe, expect, it } from 'vitest';
import { PreferencesService } from '../../../src/lib/services/notes/preferences-service';
import { openVault } from '../../../src/lib/store/vault';

describe('preferences the screens write through the vault worker', () => {
  it('stores the flagged-lines setting (drop by default), refuses any other value and any key a screen may not change', async () => {
    const vault = await openVault(`preferences-${process.pid}-${Date.now()}`);
    const prefs = new PreferencesService(async () => vault);
    expect(await vault.settings.get('device.recall.flaggedLines')).toBe('drop');
    await prefs.setPreference('device.recall.flaggedLines', 'quote');
    expect(await vault.settings.get('device.recall.flaggedLines')).toBe('quote');
    await expect(prefs.setPreference('device.recall.flaggedLines', 'keep')).rejects.toMatchObject({ code: 'input/invalid' });
    await expect(prefs.setPreference('device.recall.flaggedLines', true)).rejects.toMatchObject({ code: 'input/invalid' });
    expect(await vault.settings.get('device.recall.flaggedLines')).toBe('quote');
    await expect(prefs.setPreference('vault.restamped' as never, {})).rejects.toMatchObject({ code: 'input/invalid' });
    // The sync folder's digest is reset by the page when a folder is chosen.
    await prefs.setPreference('vault.syncSeenDigest', null);
    expect(await vault.settings.get('vault.syncSeenDigest')).toBeNull();
    vault.db.close();
  });
});
