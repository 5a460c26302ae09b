import { describe, expect, it } from 'vitest';
import { CSP_DIRECTIVES, cspHeaderFor, metaPolicy } from '../../../scripts/csp.js';
import { requestPath, securityHeaders } from '../../../scripts/security-headers.js';

/** The policy's source of truth (scripts/csp.js) and the per-path headers (scripts/security-headers.js). */
describe('Content-Security-Policy', () => {
  it('declares the policy the app is built and served with', () => {
    expect(CSP_DIRECTIVES).toEqual({
      'default-src': ['self'],
      'script-src': ['self', 'wasm-unsafe-eval'],
      'style-src': ['self', 'unsafe-inline'],
      'worker-src': ['self', 'blob:'],
      'connect-src': [
        'self',
        'https://huggingface.co',
        'https://*.huggingface.co',
        'https://*.hf.co',
        'https://raw.githubusercontent.com',
        'http://localhost:*',
        'http://127.0.0.1:*',
      ],
      'img-src': ['self', 'data:', 'blob:'],
      'font-src': ['self'],
      'manifest-src': ['self'],
      'object-src': ['none'],
      'base-uri': ['self'],
      'form-action': ['self'],
      'frame-ancestors': ['none'],
      'require-trusted-types-for': ['script'],
      'trusted-types': ['default', 'svelte-trusted-html', 'dompurify'],
    });
    expect(CSP_DIRECTIVES['script-src']).not.toContain('unsafe-inline');
    expect(CSP_DIRECTIVES['script-src']).not.toContain('unsafe-eval');
  });

  it('reads the meta policy from a built page and adds what only a header can carry', () => {
    const html = `<head><meta http-equiv="content-security-policy" content="default-src 'self'; script-src 'self' 'sha256-abc='; img-src &quot;x&quot;"></head>`;
    expect(metaPolicy(html)).toBe(`default-src 'self'; script-src 'self' 'sha256-abc='; img-src "x"`);
    expect(cspHeaderFor(html)).toBe(`default-src 'self'; script-src 'self' 'sha256-abc='; img-src "x"; frame-ancestors 'none'`);
    expect(metaPolicy('<head></head>')).toBeNull();
    expect(() => cspHeaderFor('<head></head>')).toThrow(/no Content-Security-Policy meta tag/);
  });
});

describe('security headers', () => {
  it('keeps the app cross-origin isolated except on the capture page, whose opener must survive', () => {
    expect(securityHeaders('/')['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(securityHeaders('/settings')['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(securityHeaders('/capture')['Cross-Origin-Opener-Policy']).toBe('unsafe-none');
    expect(securityHeaders('/capture/')['Cross-Origin-Opener-Policy']).toBe('unsafe-none');
    expect(securityHeaders('/capture-other')['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(securityHeaders('/capture')['Cross-Origin-Embedder-Policy']).toBe('require-corp');
    expect(securityHeaders('/')['X-Frame-Options']).toBe('DENY');
  });

  it('takes the path from a request URL, without query or fragment', () => {
    expect(requestPath('/capture?via=bookmarklet')).toBe('/capture');
    expect(requestPath(undefined)).toBe('/');
    expect(requestPath('//evil.example/capture')).toBe('/capture');
  });
});
