/** The settings a screen may change (core/api/vault-api.ts PREFERENCE_KEYS), written by the vault worker. */
import { PREFERENCE_KEYS, type PreferenceKey, type PreferencesApi } from '../../core/api/vault-api';
import { checkInboxReview } from '../../core/curate/inbox-order';
import { fail } from '../../core/errors';
import type { SettingsShape } from '../../store/settings-repo';
import type { Vault } from '../../store/vault';

export class PreferencesService implements PreferencesApi {
  constructor(private readonly vault: () => Promise<Vault>) {}

  async setPreference(key: PreferenceKey, value: unknown): Promise<void> {
    if (!(PREFERENCE_KEYS as readonly string[]).includes(key))
      fail('input/invalid', `"${String(key)}" is not a setting the app's screens may change.`);
    if (key === 'device.inbox.review') {
      const problem = checkInboxReview(value);
      if (problem) fail('input/invalid', problem);
    }
    // A safety setting takes only its two values (anything else would be read as the default).
    if (key === 'device.recall.flaggedLines' && value !== 'drop' && value !== 'quote')
      fail('input/invalid', `Flagged lines are either dropped ("drop") or kept quoted ("quote"), not ${JSON.stringify(value)}.`);
    await (await this.vault()).settings.set(key, value as SettingsShape[typeof key]);
  }
}
