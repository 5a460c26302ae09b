import { localeFormat, type LocaleFormat } from '$lib/core/format/locale-format';

/**
 * The app's formatter, in the browser's preferred languages (navigator.languages). Every date and
 * number the UI shows goes through it (src/lib/core/format/locale-format.ts).
 */
export const fmt: LocaleFormat = localeFormat(typeof navigator === 'undefined' ? undefined : navigator.languages);
