/**
 * The forms a review found missing (issue 14): each is redacted, its look-alike is not, and markers
 * never nest. Fake secrets are assembled at run time (no key-shaped literal in this file).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/lib/core/safety/redact-secrets';
import { ibanValid, luhnValid } from '../../../src/lib/core/safety/secret-checksums';

const fill = (n: number, alphabet = 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8') =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + Math.floor(i / alphabet.length)) % alphabet.length]).join('');
const hex = (n: number) => fill(n, '0123456789abcdef');
const b64 = (n: number) => fill(n, 'Ab3+Cd5/Ef7Gh9Ij1Kl2Mn4Op6Qr8St0Uv');
const upper = (n: number) => fill(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');

/** Redacts and checks that `secret` is gone and the rest of the line stayed. */
function gone(text: string, secret: string, kept: string[] = []) {
  const { text: out } = redactSecrets(text);
  expect(out).not.toContain(secret);
  for (const part of kept) expect(out).toContain(part);
  return out;
}

describe('redactSecrets: the forms that were missed', () => {
  it('unquoted .env lines', () => {
    gone('DB_HOST=localhost\nDB_PASSWORD=hunter2-prod\nDB_NAME=app', 'hunter2-prod', ['DB_HOST=localhost', 'DB_PASSWORD=', 'DB_NAME=app']);
    gone(`SECRET_KEY=${fill(50)}`, fill(50), ['SECRET_KEY=']);
    gone(`export API_KEY=${fill(32)}`, fill(32), ['export API_KEY=']);
    gone(`  - POSTGRES_PASSWORD=${fill(12)}`, fill(12));
  });

  it('YAML password and secret keys', () => {
    gone(`database:\n  user: app\n  password: ${fill(12)}\n  pool: 10`, fill(12), ['password: ', 'pool: 10']);
    gone(`oauth:\n  client_secret: "${fill(32)}"`, fill(32));
  });

  it('connection strings', () => {
    gone(`Server=tcp:acme.database.windows.net,1433;User ID=admin;Password=${fill(12)}!;Encrypt=True;`, `${fill(12)}!`, ['Encrypt=True;']);
    gone(`Host=db;Username=app;Pwd=${fill(10)};`, fill(10));
    gone(`jdbc:mysql://db:3306/app?user=app&password=${fill(14)}&useSSL=true`, fill(14), ['useSSL=true']);
  });

  it('the aws configure transcript, and a secret on the line after its key id', () => {
    const id = 'AKIA' + upper(16);
    const secret = b64(40);
    gone(
      `$ aws configure\nAWS Access Key ID [None]: ${id}\nAWS Secret Access Key [None]: ${secret}\nDefault region name [None]: us-east-1`,
      secret,
      ['Default region name'],
    );
    gone(`my creds:\n${id}\n${secret}\nwhy access denied?`, secret, ['why access denied?']);
  });

  it('AWS session tokens', () => {
    const token = 'IQoJb3JpZ2luX2Vj' + b64(300);
    gone(`AWS_SESSION_TOKEN=${token}`, token.slice(20, 60));
    gone(`{"SessionToken": "FwoGZXIvYXdzE${b64(280)}"}`, b64(280).slice(0, 40));
  });

  it('GitLab, SendGrid, Twilio, Discord and Telegram tokens', () => {
    gone(`token glpat-${fill(20)} expired`, `glpat-${fill(20)}`);
    const sg = `SG.${fill(22)}.${fill(43)}`;
    expect(redactSecrets(`key ${sg} ok`).text).toBe('key [REDACTED:sendgrid-key] ok');
    gone(`TWILIO_API_KEY=SK${hex(32)}`, hex(32));
    gone(`client = Client("AC${hex(32)}", "${hex(32).split('').reverse().join('')}")`, hex(32).split('').reverse().join(''));
    const discord = `${Buffer.from('123456789012345678').toString('base64')}.${fill(6)}.${fill(38)}`;
    gone(`bot.login('${discord}')`, discord);
    const telegram = `1234567890:AA${fill(33)}`;
    gone(`curl https://api.telegram.org/bot${telegram}/getUpdates`, telegram, ['/getUpdates']);
  });

  it('Azure account keys and Basic authorization', () => {
    const key = b64(86) + '==';
    gone(`DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${key};EndpointSuffix=core.windows.net`, key, ['EndpointSuffix']);
    const basic = Buffer.from(`admin:${fill(12)}`).toString('base64');
    expect(redactSecrets(`Authorization: Basic ${basic}`).text).toBe('Authorization: Basic [REDACTED:basic-auth]');
  });
});

describe('card numbers and IBANs are checked before redaction', () => {
  it('Luhn and mod-97', () => {
    expect(luhnValid('4539578763621486')).toBe(true);
    expect(luhnValid('4539578763621487')).toBe(false);
    expect(ibanValid('GB33BUKB20201555555555')).toBe(true);
    expect(ibanValid('GB34BUKB20201555555555')).toBe(false);
  });

  it('a Luhn-valid card number is redacted, spaced, dashed or plain; one that fails is kept', () => {
    for (const form of ['4539 5787 6362 1486', '4539-5787-6362-1486', '4539578763621486']) {
      expect(redactSecrets(`card ${form} exp 09/27`).text).toBe('card [REDACTED:card-number] exp 09/27');
    }
    for (const text of ['order 4539578763621487 shipped', 'Unix time 1716000000123 ms', 'call +1 415 555 0134']) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });

  it('a mod-97-valid IBAN is redacted; one with wrong check digits is kept', () => {
    expect(redactSecrets('IBAN GB33 BUKB 2020 1555 5555 55 please').text).toBe('IBAN [REDACTED:iban] please');
    expect(redactSecrets('IBAN GB33BUKB20201555555555, thanks').text).toBe('IBAN [REDACTED:iban], thanks');
    expect(redactSecrets('ref GB34BUKB20201555555555').text).toBe('ref GB34BUKB20201555555555');
  });
});

describe('markers never nest', () => {
  it('a URL whose user part is itself a secret', () => {
    const token = 'ghp_' + fill(36);
    const once = redactSecrets(`git clone https://${token}:x-oauth-basic-${fill(6)}@github.com/acme/tools.git`).text;
    expect(once).not.toContain('[REDACTED:[');
    expect(once).toContain('[REDACTED:github-token]');
    expect(redactSecrets(once).text).toBe(once);
  });

  it('an already-redacted URL is left as it is (the [REDACTED:[REDACTED:url-password] case)', () => {
    const text = 'postgres://[REDACTED:github-token]:[REDACTED:url-password]@db/x and https://app:[REDACTED:url-password]@h/';
    expect(redactSecrets(text)).toEqual({ text, redactions: {} });
  });

  it('for any mix of secrets and separators, no marker nests and a second pass changes nothing (property)', () => {
    const parts = [
      'ghp_' + fill(36),
      `https://u:${fill(10)}@h/`,
      'DB_PASSWORD=hunter2-prod',
      `password: ${fill(12)}`,
      '4539 5787 6362 1486',
      'GB33BUKB20201555555555',
      `Authorization: Basic ${Buffer.from('a:b1234567').toString('base64')}`,
      'AKIA' + upper(16),
      b64(40),
      '[REDACTED:jwt]',
      'https://',
      ':',
      '@',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 8 }), fc.constantFrom(' ', '', '\n', ':', '@'), (list, sep) => {
        const once = redactSecrets(list.join(sep)).text;
        expect(once).not.toMatch(/\[REDACTED:[^\]]*\[/);
        expect(redactSecrets(once).text).toBe(once);
      }),
      { numRuns: 400 },
    );
  });
});

describe('placeholders and documentation examples are not secrets', () => {
  it.each([
    'AWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'OPENAI_API_KEY="sk-xxxxxxxxxxxxxxxxxxxxxxxx"',
    'DB_PASSWORD=${DB_PASSWORD}',
    'password: ${POSTGRES_PASSWORD}',
    'API_KEY=your-api-key-here',
    'STRIPE_SECRET_KEY=sk_test_...',
    'PASSWORD_RESET_URL=https://example.com/reset',
    'TOKEN_TTL=3600',
    'password_min_length: 12',
    'Stripe test card 4242 4242 4242 4242',
  ])('%j', (text) => {
    expect(redactSecrets(text)).toEqual({ text, redactions: {} });
  });
});
