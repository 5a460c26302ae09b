/** The identifier in the built bookmarklet that stands for the app's origin. */
export const APP_ORIGIN_TOKEN = '__ENGRAM_APP_ORIGIN__';

/**
 * The `javascript:` URL of the bookmarklet for an app served at `appOrigin` (the capture page's
 * own `location.origin`). The built source must name the token exactly once.
 */
export function bookmarkletHref(builtSource: string, appOrigin: string): string {
  const parts = builtSource.split(APP_ORIGIN_TOKEN);
  if (parts.length !== 2)
    throw new Error(`The built bookmarklet must contain ${APP_ORIGIN_TOKEN} exactly once (found ${parts.length - 1}).`);
  return `javascript:${encodeURIComponent(parts.join(JSON.stringify(appOrigin)))}`;
}

/** The script a `javascript:` URL runs (what a browser does with the bookmark). */
export function bookmarkletScript(href: string): string {
  if (!href.startsWith('javascript:')) throw new Error('Not a javascript: URL.');
  return decodeURIComponent(href.slice('javascript:'.length));
}
