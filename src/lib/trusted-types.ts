/**
 * The Trusted Types default policy (docs/SECURITY.md). The CSP says `require-trusted-types-for
 * 'script'`: no string reaches an HTML, script or script-URL sink unless a policy let it. Svelte
 * renders through its own policy (`svelte-trusted-html`) and DOMPurify through its own
 * (`dompurify`); this default policy is what every other sink meets:
 *
 * - script URLs (`new Worker(url)`, the service worker, a runtime's blob: worker) only from this
 *   origin or a blob: made here;
 * - script text (`eval`-like sinks, a script element's text, a string timer): always refused;
 * - HTML strings: always refused (stored text is rendered only through SafeHtml, i.e. DOMPurify).
 *
 * Imported first by the page (hooks.client.ts) and by every worker entry: each realm has its own.
 */

interface TrustedTypePolicyFactoryLike {
  createPolicy(name: string, rules: Record<string, (input: string) => string>): unknown;
  defaultPolicy?: unknown;
}

export const DEFAULT_POLICY_NAME = 'default';

/** Whether a script URL may be loaded: this origin's files, or a blob: URL made in this origin. */
export function allowedScriptUrl(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url, origin);
    if (parsed.protocol === 'blob:') return parsed.origin === origin || url.startsWith(`blob:${origin}/`);
    return parsed.origin === origin;
  } catch {
    return false;
  }
}

export function installDefaultPolicy(
  scope: { trustedTypes?: TrustedTypePolicyFactoryLike; location?: { origin: string } } = globalThis,
): boolean {
  const factory = scope.trustedTypes;
  const origin = scope.location?.origin;
  if (!factory || !origin || factory.defaultPolicy) return false;
  factory.createPolicy(DEFAULT_POLICY_NAME, {
    createScriptURL: (url) => {
      if (allowedScriptUrl(url, origin)) return url;
      throw new TypeError(`Trusted Types: a script from ${url} was refused (only this origin may run code here).`);
    },
    createScript: () => {
      throw new TypeError('Trusted Types: code from a string was refused.');
    },
    createHTML: () => {
      throw new TypeError('Trusted Types: HTML from a string was refused (stored text is shown through the sanitizer only).');
    },
  });
  return true;
}

installDefaultPolicy();
