/**
 * The secret rule list, both ways: every kind is found in realistic surroundings, and ordinary
 * prose (including words like "bearer", "token", "sk-learn", git SHAs) is left alone.
 * Fake secrets are assembled at run time so no key-shaped string sits in the repository.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, type SecretKind } from '../../../src/lib/core/safety/redact-secrets';

/** A key-shaped filler of `n` characters (letters and digits). */
const fill = (n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8') =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
const upper = (n: number) => fill(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');

const SECRETS: [SecretKind, string][] = [
  ['openai-key', 'sk-' + fill(48)],
  ['openai-key', 'sk-proj-' + fill(40) + '_' + fill(20)],
  ['anthropic-key', 'sk-ant-api03-' + fill(60) + '-' + fill(20)],
  ['aws-access-key-id', 'AKIA' + upper(16)],
  ['github-token', 'ghp_' + fill(36)],
  ['github-token', 'gho_' + fill(36)],
  ['github-token', 'github_pat_' + fill(22) + '_' + fill(59)],
  ['slack-token', 'xoxb-' + '1234567890-' + fill(24)],
  ['slack-token', 'xoxp-' + '1234567890-1234567890-' + fill(32)],
  ['slack-webhook', 'https://hooks.slack.com/services/T' + upper(8) + '/B' + upper(8) + '/' + fill(24)],
  ['google-api-key', 'AIza' + fill(35)],
  ['stripe-key', 'sk_' + 'live_' + fill(24)],
  ['huggingface-token', 'hf_' + fill(34)],
  ['npm-token', 'npm_' + fill(36)],
  ['jwt', 'eyJ' + fill(20) + '.eyJ' + fill(40) + '.' + fill(43)],
];

describe('redactSecrets finds', () => {
  it.each(SECRETS)('a %s in a sentence, and only it', (kind, secret) => {
    const text = `Here is my key: ${secret} — please keep it safe.`;
    const { text: out, redactions } = redactSecrets(text);
    expect(out).toBe(`Here is my key: [REDACTED:${kind}] — please keep it safe.`);
    expect(redactions).toEqual({ [kind]: 1 });
  });

  it.each(SECRETS)('a %s inside code and quotes', (kind, secret) => {
    const { text, redactions } = redactSecrets(`const key = "${secret}";\nfetch(url, { key: '${secret}' })`);
    expect(text).not.toContain(secret);
    expect(redactions[kind]).toBe(2);
  });

  it('a labelled AWS secret key, keeping the label', () => {
    const secret = fill(20) + '/' + fill(19);
    const { text, redactions } = redactSecrets(`aws_secret_access_key = ${secret}\nAWS_SECRET_ACCESS_KEY: "${secret}"`);
    expect(text).toBe('aws_secret_access_key = [REDACTED:aws-secret-key]\nAWS_SECRET_ACCESS_KEY: "[REDACTED:aws-secret-key]"');
    expect(redactions).toEqual({ 'aws-secret-key': 2 });
  });

  it('an unlabelled AWS secret right after its key id, but not a git SHA there', () => {
    const id = 'AKIA' + upper(16);
    const secret = fill(40);
    expect(redactSecrets(`creds: ${id} ${secret}`).text).toBe('creds: [REDACTED:aws-access-key-id] [REDACTED:aws-secret-key]');
    const sha = '3f786850e387550fdab836ed7e6dc881de23001b';
    expect(redactSecrets(`key ${id} at commit ${sha}`).text).toBe(`key [REDACTED:aws-access-key-id] at commit ${sha}`);
  });

  it('PEM, OpenSSH and PGP private key blocks, whole or cut off', () => {
    const body = Array.from({ length: 5 }, () => fill(64, 'ABCDEFabcdef0123456789+/')).join('\n');
    for (const label of ['RSA PRIVATE KEY', 'PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'EC PRIVATE KEY']) {
      const block = `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
      expect(redactSecrets(`key:\n${block}\nthanks`).text).toBe('key:\n[REDACTED:private-key]\nthanks');
    }
    expect(redactSecrets(`-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n-----END PGP PRIVATE KEY BLOCK-----`).redactions).toEqual({
      'private-key': 1,
    });
    const cut = redactSecrets(`pasted:\n-----BEGIN RSA PRIVATE KEY-----\n${body}\nand then I lost the rest`);
    expect(cut.text).toBe('pasted:\n[REDACTED:private-key]and then I lost the rest');
  });

  it('bearer tokens, keeping the word Bearer', () => {
    const token = fill(32) + '.' + fill(12);
    expect(redactSecrets(`Authorization: Bearer ${token}`).text).toBe('Authorization: Bearer [REDACTED:bearer-token]');
    expect(redactSecrets(`curl -H "Authorization: Bearer eyJ${fill(20)}.eyJ${fill(30)}.${fill(30)}"`).redactions).toEqual({ jwt: 1 });
  });

  it('passwords in URLs and quoted secrets in config, keeping the rest', () => {
    expect(redactSecrets('postgres://app:s3cr3t-Pw!@db.internal:5432/main').text).toBe(
      'postgres://app:[REDACTED:url-password]@db.internal:5432/main',
    );
    expect(redactSecrets(`{"api_key": "${fill(16)}", "password": "hunter2hunter2"}`).text).toBe(
      '{"api_key": "[REDACTED:assigned-secret]", "password": "[REDACTED:assigned-secret]"}',
    );
  });

  it('counts per kind and is idempotent', () => {
    const text = `${SECRETS.map(([, s]) => s).join('\n')}\n${SECRETS[0]![1]}`;
    const once = redactSecrets(text);
    expect(once.redactions['openai-key']).toBe(3);
    expect(Object.values(once.redactions).reduce((a, b) => a + (b ?? 0), 0)).toBe(SECRETS.length + 1);
    const twice = redactSecrets(once.text);
    expect(twice).toEqual({ text: once.text, redactions: {} });
  });
});

describe('redactSecrets leaves prose alone', () => {
  it.each([
    'I use sk-learn (scikit-learn) for the regression.',
    'The bearer of this letter is a friend; bearer bonds are old news.',
    'Bearer tokens are described in RFC 6750, section 2.1.',
    'Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b and 9fceb02d0ae598e95dc970b74767f19372d61af8.',
    'Request id 123e4567-e89b-12d3-a456-426614174000 failed.',
    'AWS key ids start with AKIA and GitHub tokens with ghp_ or github_pat_.',
    'xoxo, see you at the garden.',
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----',
    'Password: see the vault entry. The token budget is 58k; the api key goes in .env.',
    'Use password = "" in dev and api_key = "${API_KEY}" in prod.',
    'A JWT starts with eyJ, as in eyJhbGciOi.',
    'https://example.com/search?q=japanese+maple&page=2',
    'user@example.com wrote: meet at 10:30',
    'The class is sk-button-primary-large-variant-2; xoxo-hugs-2024-forever.',
    'Set api_key = "your-api-key-here" and token: "<YOUR_TOKEN>" and password = "********".',
  ])('%j', (text) => {
    expect(redactSecrets(text)).toEqual({ text, redactions: {} });
  });

  it('never redacts sentences of ordinary words (property)', () => {
    const words = [
      'the',
      'key',
      'token',
      'bearer',
      'secret',
      'password',
      'sk',
      'learn',
      'api',
      'maple',
      'garden',
      'AKIA',
      'ghp',
      'xox',
      'Bearer',
      'eyJ',
      'hf',
      'npm',
      '2024',
      'v2',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 30 }), fc.constantFrom(' ', '-', '_', ': ', '.'), (list, sep) => {
        const text = list.join(sep);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
