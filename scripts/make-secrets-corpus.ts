/**
 * Writes tests/fixtures/secrets/corpus.json: real-shaped but FAKE secrets (every value is drawn
 * from a seeded generator here; none was ever a working key) in the places people paste them
 * (prose, code, JSON, YAML, .env, shell transcripts, URLs, stack traces, logs), and benign
 * look-alikes (hashes, UUIDs, base64 images, ids, code, documentation example keys, numbers that
 * fail their checksums) that a redactor must leave alone.
 *
 *   npx tsx scripts/make-secrets-corpus.ts     # rewrites the corpus (same seed, same bytes)
 *   npx tsx scripts/make-secrets-corpus.ts 7 /tmp/held-out.json   # same shapes, other values
 *
 * A case lists every secret value it holds (`secrets`); it counts as caught when none of them,
 * nor any 16-character piece of a long one, is left in the redacted text.
 */
import { writeFileSync } from 'node:fs';
import type { BenignCase, SecretCase } from '../src/lib/core/safety/eval/secrets-eval';
import { seededRng } from '../tests/factories/rng';

export const SECRETS_CORPUS_SEED = 0x5ec2e7;
// `-- <seed> <out>` writes a held-out corpus of the same shapes with other values (robustness check).
const SEED = process.argv[2] ? Number(process.argv[2]) : SECRETS_CORPUS_SEED;
const OUT = process.argv[3] ?? 'tests/fixtures/secrets/corpus.json';

const rng = seededRng(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';

/** `n` characters of `alphabet`, with at least one digit and (for mixed alphabets) both cases. */
function chars(n: number, alphabet = ALNUM): string {
  for (;;) {
    const s = Array.from({ length: n }, () => alphabet[Math.floor(rng() * alphabet.length)]).join('');
    const needsDigit = /\d/.test(alphabet) && n >= 8;
    const needsCases = /[a-z]/.test(alphabet) && /[A-Z]/.test(alphabet) && n >= 12;
    if ((!needsDigit || /\d/.test(s)) && (!needsCases || (/[a-z]/.test(s) && /[A-Z]/.test(s)))) return s;
  }
}
const hex = (n: number) => chars(n, HEX);
const digits = (n: number) => chars(n, DIGITS);
const b64 = (bytes: number) => Buffer.from(Array.from({ length: bytes }, () => int(0, 255))).toString('base64');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;

function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}
function card(prefix: string, length: number): string {
  const body = prefix + digits(length - prefix.length - 1);
  return body + luhnDigit(body);
}
function ibanMod97(text: string): number {
  const moved = (text.slice(4) + text.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of moved) rest = (rest * 10 + Number(ch)) % 97;
  return rest;
}
function iban(country: string, bban: string): string {
  const check = 98 - ibanMod97(`${country}00${bban}`);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}
const spaced = (s: string) => s.replace(/(.{4})(?!$)/g, '$1 ');

const secretCases: SecretCase[] = [];
const benignCases: BenignCase[] = [];
function add(kind: string, form: string, text: string, ...values: string[]): void {
  // Only the forms the text holds (a card number may be written spaced or not).
  const secrets = values.filter((v) => text.includes(v));
  if (secrets.length === 0) throw new Error(`case of ${kind} holds none of its secrets`);
  secretCases.push({ id: `s${String(secretCases.length + 1).padStart(3, '0')}`, kind, form, text, secrets });
}
const benign = (category: string, text: string) =>
  benignCases.push({ id: `b${String(benignCases.length + 1).padStart(3, '0')}`, category, text });

/** Generic places a vendor-prefixed token turns up; `label` is its usual variable name. */
type Form = (s: string, label: string, vendor: string) => string;
const FORMS: Record<string, Form> = {
  prose: (s, _l, v) => `Here's my ${v} key, it stopped working yesterday: ${s}. Any idea why I get a 401?`,
  'code-js': (s, _l, v) =>
    `import ${v.replace(/\W/g, '')} from '${v.toLowerCase().replace(/\W/g, '-')}';\n\nconst client = new ${v.replace(/\W/g, '')}({ apiKey: "${s}" });\nawait client.ping();`,
  'code-py': (s, l) =>
    `import os\n\n${l.toLowerCase()} = '${s}'  # TODO move to vault\nresp = session.get(url, headers={"Authorization": f"Bearer {${l.toLowerCase()}}"})`,
  json: (s, l) => `{\n  "name": "worker",\n  "${l.toLowerCase()}": "${s}",\n  "timeout": 30\n}`,
  yaml: (s, l) => `service:\n  name: worker\n  env:\n    ${l}: ${s}\n  replicas: 2`,
  env: (s, l) => `# .env.production\nNODE_ENV=production\n${l}=${s}\nPORT=8080`,
  shell: (s, l) => `$ export ${l}=${s}\n$ ./deploy.sh --region eu-west-1\nDeploying... done`,
  url: (s) => `curl "https://api.internal.example/v2/items?limit=20&token=${s}"`,
  'stack-trace': (s, l, v) =>
    `Traceback (most recent call last):\n  File "/srv/app/main.py", line 42, in <module>\n    client = ${v.replace(/\W/g, '')}Client(${l.toLowerCase()}="${s}")\n  File "/srv/app/client.py", line 17, in __init__\n    raise AuthError("invalid credentials")\nAuthError: invalid credentials`,
  log: (s) => `2024-05-14T09:21:07.332Z DEBUG http request headers={'Authorization': 'Bearer ${s}', 'User-Agent': 'worker/1.4'}`,
  markdown: (s, l) => `| variable | value |\n| --- | --- |\n| \`${l}\` | \`${s}\` |\n| \`REGION\` | \`eu-west-1\` |`,
};
const FORM_NAMES = Object.keys(FORMS);

/** A prefixed token in `count` distinct generic forms. */
function prefixed(kind: string, vendor: string, label: string, make: () => string, count = 4, forms: string[] = FORM_NAMES) {
  const chosen = new Set<string>();
  while (chosen.size < Math.min(count, forms.length)) chosen.add(pick(forms));
  for (const form of chosen) {
    const s = make();
    add(kind, form, FORMS[form]!(s, label, vendor), s);
  }
}

// --- AI providers -----------------------------------------------------------------------------
prefixed('openai-key', 'OpenAI', 'OPENAI_API_KEY', () => `sk-proj-${chars(74, B64URL)}T3BlbkFJ${chars(74, B64URL)}`, 3);
prefixed('openai-key', 'OpenAI', 'OPENAI_API_KEY', () => `sk-${chars(20)}T3BlbkFJ${chars(20)}`, 2);
prefixed('anthropic-key', 'Anthropic', 'ANTHROPIC_API_KEY', () => `sk-ant-api03-${chars(93, B64URL)}AA`, 4);
prefixed('openrouter-key', 'OpenRouter', 'OPENROUTER_API_KEY', () => `sk-or-v1-${hex(64)}`, 3);
prefixed('groq-key', 'Groq', 'GROQ_API_KEY', () => `gsk_${chars(52)}`, 3);
prefixed('xai-key', 'xAI', 'XAI_API_KEY', () => `xai-${chars(80)}`, 2);
prefixed('perplexity-key', 'Perplexity', 'PPLX_API_KEY', () => `pplx-${chars(48)}`, 2);
prefixed('replicate-token', 'Replicate', 'REPLICATE_API_TOKEN', () => `r8_${chars(37)}`, 2);
prefixed('huggingface-token', 'HuggingFace', 'HF_TOKEN', () => `hf_${chars(34)}`, 3);

// --- code hosting, CI, registries -------------------------------------------------------------
prefixed('github-token', 'GitHub', 'GITHUB_TOKEN', () => `${pick(['ghp', 'gho', 'ghs', 'ghu'])}_${chars(36)}`, 4);
prefixed('github-token', 'GitHub', 'GH_TOKEN', () => `github_pat_${chars(22)}_${chars(59)}`, 2);
prefixed('gitlab-token', 'GitLab', 'GITLAB_TOKEN', () => `glpat-${chars(20, B64URL)}`, 4);
prefixed('gitlab-token', 'GitLab', 'CI_RUNNER_TOKEN', () => `glrt-${chars(20, B64URL)}`, 1);
prefixed('npm-token', 'npm', 'NPM_TOKEN', () => `npm_${chars(36)}`, 3);
{
  const t = `npm_${chars(36)}`;
  add('npm-token', 'npmrc', `# ~/.npmrc\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${t}\n`, t);
  const legacy = uuid();
  add('npm-token', 'npmrc', `cat ~/.npmrc\n//registry.npmjs.org/:_authToken=${legacy}\nalways-auth=true`, legacy);
}
prefixed('pypi-token', 'PyPI', 'TWINE_PASSWORD', () => `pypi-AgEIcHlwaS5vcmc${chars(60, B64URL)}`, 3);
prefixed('docker-token', 'Docker Hub', 'DOCKERHUB_TOKEN', () => `dckr_pat_${chars(27, B64URL)}`, 3);
{
  const user = pick(['deploy', 'ci-bot', 'maria']);
  const pw = `${chars(10)}!${digits(3)}`;
  const auth = Buffer.from(`${user}:${pw}`).toString('base64');
  add('docker-auth', 'json', `~/.docker/config.json:\n{\n  "auths": {\n    "registry.example.io": { "auth": "${auth}" }\n  }\n}`, auth);
}
prefixed('nuget-key', 'NuGet', 'NUGET_API_KEY', () => `oy2${chars(43, LOWER + DIGITS)}`, 2);
prefixed('rubygems-key', 'RubyGems', 'GEM_HOST_API_KEY', () => `rubygems_${hex(48)}`, 2);
prefixed('circleci-token', 'CircleCI', 'CIRCLE_TOKEN', () => `CCIPAT_${chars(22)}_${hex(40)}`, 2);

// --- chat and messaging -----------------------------------------------------------------------
prefixed('slack-token', 'Slack', 'SLACK_BOT_TOKEN', () => `xoxb-${digits(11)}-${digits(13)}-${chars(24)}`, 3);
prefixed('slack-token', 'Slack', 'SLACK_USER_TOKEN', () => `xoxp-${digits(11)}-${digits(11)}-${digits(13)}-${hex(32)}`, 1);
{
  const hook = `https://hooks.slack.com/services/T${chars(10, UPPER + DIGITS)}/B${chars(10, UPPER + DIGITS)}/${chars(24)}`;
  add('slack-webhook', 'shell', `curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy ok"}' ${hook}`, hook);
  const hook2 = `https://hooks.slack.com/services/T${chars(10, UPPER + DIGITS)}/B${chars(10, UPPER + DIGITS)}/${chars(24)}`;
  add('slack-webhook', 'yaml', `notify:\n  slack:\n    webhook_url: ${hook2}`, hook2);
}
function discordToken(): string {
  const id = Buffer.from(String(int(1, 9)) + digits(17))
    .toString('base64')
    .replace(/=+$/, '');
  return `${id}.${chars(6, B64URL)}.${chars(38, B64URL)}`;
}
prefixed('discord-token', 'Discord', 'DISCORD_TOKEN', discordToken, 3, ['prose', 'code-py', 'env', 'json', 'stack-trace']);
{
  const t = discordToken();
  add(
    'discord-token',
    'code-js',
    `const { Client } = require('discord.js');\nconst bot = new Client({ intents: [] });\nbot.login('${t}');`,
    t,
  );
  const path = `https://discord.com/api/webhooks/${digits(18)}/${chars(68, B64URL)}`;
  add('discord-webhook', 'prose', `Post alerts here: ${path} (the #alerts channel)`, path);
}
const telegram = () => `${int(1, 9)}${digits(9)}:AA${chars(33, B64URL)}`;
prefixed('telegram-bot-token', 'Telegram', 'TELEGRAM_BOT_TOKEN', telegram, 3, ['prose', 'code-py', 'env', 'yaml', 'stack-trace']);
{
  const t = telegram();
  add('telegram-bot-token', 'url', `curl https://api.telegram.org/bot${t}/getUpdates`, t);
}
{
  const sid = `AC${hex(32)}`;
  const token = hex(32);
  add(
    'twilio-auth-token',
    'code-py',
    `from twilio.rest import Client\nclient = Client("${sid}", "${token}")\nclient.messages.create(to="+15555550100", from_="+15555550199", body="hi")`,
    token,
  );
  const token2 = hex(32);
  add('twilio-auth-token', 'env', `TWILIO_ACCOUNT_SID=AC${hex(32)}\nTWILIO_AUTH_TOKEN=${token2}`, token2);
  const token3 = hex(32);
  add('twilio-auth-token', 'prose', `twilio account AC${hex(32)}, auth token ${token3} - it says 20003 authenticate`, token3);
}
prefixed('twilio-api-key', 'Twilio', 'TWILIO_API_KEY', () => `SK${hex(32)}`, 2, ['env', 'json', 'prose']);
prefixed('sendgrid-key', 'SendGrid', 'SENDGRID_API_KEY', () => `SG.${chars(22, B64URL)}.${chars(43, B64URL)}`, 4);
prefixed('mailgun-key', 'Mailgun', 'MAILGUN_API_KEY', () => `key-${hex(32)}`, 2);
prefixed('mailchimp-key', 'Mailchimp', 'MAILCHIMP_API_KEY', () => `${hex(32)}-us${int(1, 21)}`, 2);
{
  const t = uuid();
  add(
    'postmark-token',
    'shell',
    `curl "https://api.postmarkapp.com/email" \\\n  -H "Accept: application/json" \\\n  -H "X-Postmark-Server-Token: ${t}"`,
    t,
  );
}

// --- payment --------------------------------------------------------------------------------
prefixed('stripe-key', 'Stripe', 'STRIPE_SECRET_KEY', () => `sk_live_51${chars(97)}`, 3);
prefixed('stripe-key', 'Stripe', 'STRIPE_RESTRICTED_KEY', () => `rk_live_51${chars(97)}`, 1);
prefixed('stripe-webhook-secret', 'Stripe', 'STRIPE_WEBHOOK_SECRET', () => `whsec_${chars(32)}`, 2);
prefixed('square-token', 'Square', 'SQUARE_ACCESS_TOKEN', () => `EAAA${chars(60, B64URL)}`, 2);
prefixed('square-token', 'Square', 'SQUARE_SECRET', () => `sq0csp-${chars(43, B64URL)}`, 1);
prefixed(
  'braintree-token',
  'Braintree',
  'BRAINTREE_ACCESS_TOKEN',
  () => `access_token$production$${chars(16, LOWER + DIGITS)}$${hex(32)}`,
  2,
);
prefixed('shopify-token', 'Shopify', 'SHOPIFY_ACCESS_TOKEN', () => `shpat_${hex(32)}`, 2);
{
  const visa = card('4', 16);
  add('card-number', 'prose', `ok my card is ${spaced(visa)} exp 09/27 - why does the checkout keep failing?`, visa, spaced(visa));
  const mc = card(String(int(51, 55)), 16);
  add('card-number', 'json', `{"customer": "c_1042", "card": "${mc}", "exp": "11/26"}`, mc);
  const amex = card(pick(['34', '37']), 15);
  const amexSpaced = `${amex.slice(0, 4)} ${amex.slice(4, 10)} ${amex.slice(10)}`;
  add('card-number', 'prose', `Amex ${amexSpaced}, the billing zip is 94107`, amex, amexSpaced);
  const disc = card('6011', 16);
  const dashed = disc.replace(/(\d{4})(?!$)/g, '$1-');
  add('card-number', 'log', `2024-03-02 12:00:01 ERROR payment declined card=${dashed} reason=insufficient_funds`, disc, dashed);
  const visa2 = card('4', 16);
  add('card-number', 'markdown', `| field | value |\n|---|---|\n| card | ${visa2} |\n| cvv | 123 |`, visa2);
}
{
  const de = iban('DE', digits(18));
  add('iban', 'prose', `Please wire the deposit to IBAN ${spaced(de)} (Sparkasse), reference 2024-17.`, de, spaced(de));
  const gb = iban('GB', `${pick(['NWBK', 'BARC', 'MIDL'])}${digits(14)}`);
  add('iban', 'json', `{"payee": "J. Doe", "iban": "${gb}", "bic": "NWBKGB2L"}`, gb);
  const fr = iban('FR', `${digits(10)}${chars(11, UPPER + DIGITS)}${digits(2)}`);
  add('iban', 'prose', `Mon IBAN: ${spaced(fr)}`, fr, spaced(fr));
  const nl = iban('NL', `${pick(['ABNA', 'INGB', 'RABO'])}${digits(10)}`);
  add('iban', 'yaml', `payout:\n  iban: ${nl}\n  currency: EUR`, nl);
  const es = iban('ES', digits(20));
  add('iban', 'prose', `transfer to ${es} please`, es);
}

// --- cloud ----------------------------------------------------------------------------------
const akid = () => `AKIA${chars(16, UPPER + '234567')}`;
const awsSecret = () => chars(40, ALNUM + '/+');
{
  const id = akid();
  const secret = awsSecret();
  add(
    'aws-configure',
    'shell',
    `$ aws configure\nAWS Access Key ID [None]: ${id}\nAWS Secret Access Key [None]: ${secret}\nDefault region name [None]: us-east-1\nDefault output format [None]: json`,
    id,
    secret,
  );
  const id2 = akid();
  const secret2 = awsSecret();
  add(
    'aws-configure',
    'shell',
    `$ aws configure --profile prod\nAWS Access Key ID [****************7Q2D]: ${id2}\nAWS Secret Access Key [****************xT9a]: ${secret2}\nDefault region name [eu-west-1]:`,
    id2,
    secret2,
  );
}
{
  const id = akid();
  const secret = awsSecret();
  add('aws-key-pair', 'prose', `my aws creds (for the staging bucket):\n${id}\n${secret}\nwhy does s3 ls say access denied?`, id, secret);
  const id2 = akid();
  const secret2 = awsSecret();
  add('aws-key-pair', 'ini', `[default]\naws_access_key_id = ${id2}\naws_secret_access_key = ${secret2}\nregion = us-west-2`, id2, secret2);
  const id3 = akid();
  const secret3 = awsSecret();
  add('aws-key-pair', 'env', `AWS_ACCESS_KEY_ID=${id3}\nAWS_SECRET_ACCESS_KEY=${secret3}\nAWS_DEFAULT_REGION=us-east-1`, id3, secret3);
  const id4 = akid();
  const secret4 = awsSecret();
  add(
    'aws-key-pair',
    'code-py',
    `s3 = boto3.client(\n    "s3",\n    aws_access_key_id="${id4}",\n    aws_secret_access_key="${secret4}",\n)`,
    id4,
    secret4,
  );
  const id5 = akid();
  const secret5 = awsSecret();
  add(
    'aws-key-pair',
    'json',
    `{\n  "AccessKey": {\n    "UserName": "ci",\n    "AccessKeyId": "${id5}",\n    "Status": "Active",\n    "SecretAccessKey": "${secret5}"\n  }\n}`,
    id5,
    secret5,
  );
}
prefixed('aws-access-key-id', 'AWS', 'AWS_ACCESS_KEY_ID', akid, 2, ['prose', 'log', 'yaml']);
{
  const token = `IQoJb3JpZ2luX2Vj${chars(360, B64)}`;
  add('aws-session-token', 'env', `AWS_ACCESS_KEY_ID=ASIA${chars(16, UPPER + '234567')}\nAWS_SESSION_TOKEN=${token}`, token);
  const token2 = `FwoGZXIvYXdzE${chars(300, B64)}`;
  add('aws-session-token', 'ini', `[temp]\naws_session_token = ${token2}\nregion = us-east-1`, token2);
  const token3 = `IQoJb3JpZ2luX2Vj${chars(320, B64)}`;
  add('aws-session-token', 'json', `{"Credentials": {"SessionToken": "${token3}", "Expiration": "2024-06-01T12:00:00Z"}}`, token3);
}
{
  const key = `${b64(64)}`;
  const cs = `DefaultEndpointsProtocol=https;AccountName=stor${chars(6, LOWER + DIGITS)};AccountKey=${key};EndpointSuffix=core.windows.net`;
  add('azure-storage-key', 'env', `AZURE_STORAGE_CONNECTION_STRING="${cs}"`, key);
  const key2 = b64(64);
  add(
    'azure-storage-key',
    'json',
    `{"ConnectionStrings": {"Blob": "DefaultEndpointsProtocol=https;AccountName=media01;AccountKey=${key2};EndpointSuffix=core.windows.net"}}`,
    key2,
  );
  const key3 = b64(64);
  add('azure-storage-key', 'prose', `the account key from the portal is ${key3} and it still says 403`, key3);
  const sig = encodeURIComponent(b64(32));
  add(
    'azure-sas-token',
    'url',
    `https://media01.blob.core.windows.net/uploads/report.pdf?sv=2022-11-02&ss=b&srt=o&sp=rl&se=2024-12-31T23:59:59Z&st=2024-01-01T00:00:00Z&spr=https&sig=${sig}`,
    sig,
  );
  const secret = `${chars(3)}8Q~${chars(34, ALNUM + '_~.-')}`;
  add('azure-client-secret', 'env', `AZURE_TENANT_ID=${uuid()}\nAZURE_CLIENT_ID=${uuid()}\nAZURE_CLIENT_SECRET=${secret}`, secret);
  const secret2 = `${chars(3)}7Q~${chars(34, ALNUM + '_~.-')}`;
  add('azure-client-secret', 'code-py', `credential = ClientSecretCredential(tenant_id, client_id, client_secret="${secret2}")`, secret2);
}
prefixed('google-api-key', 'Google', 'GOOGLE_API_KEY', () => `AIza${chars(35, B64URL)}`, 4);
{
  const pem = `-----BEGIN PRIVATE KEY-----\\n${Array.from({ length: 4 }, () => chars(64, B64)).join('\\n')}\\n-----END PRIVATE KEY-----\\n`;
  add(
    'gcp-service-account',
    'json',
    `{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key_id": "${hex(40)}",\n  "private_key": "${pem}",\n  "client_email": "ci@acme-prod.iam.gserviceaccount.com"\n}`,
    pem.split('\\n')[1]!,
    pem.split('\\n')[2]!,
  );
}
prefixed('digitalocean-token', 'DigitalOcean', 'DIGITALOCEAN_TOKEN', () => `dop_v1_${hex(64)}`, 2);
prefixed('heroku-key', 'Heroku', 'HEROKU_API_KEY', () => `HRKU-${chars(60, B64URL)}`, 2);
{
  const k = uuid();
  add('heroku-key', 'env', `HEROKU_API_KEY=${k}`, k);
}
prefixed('cloudflare-token', 'Cloudflare', 'CLOUDFLARE_API_TOKEN', () => chars(40, B64URL), 2, ['env', 'yaml', 'shell']);
prefixed('vercel-token', 'Vercel', 'VERCEL_TOKEN', () => chars(24), 2, ['env', 'shell', 'yaml']);
prefixed('netlify-token', 'Netlify', 'NETLIFY_AUTH_TOKEN', () => `nfp_${chars(36)}`, 2);
prefixed('flyio-token', 'Fly.io', 'FLY_API_TOKEN', () => `fo1_${chars(43, B64URL)}`, 1);
prefixed('supabase-token', 'Supabase', 'SUPABASE_ACCESS_TOKEN', () => `sbp_${hex(40)}`, 2);
prefixed('planetscale-password', 'PlanetScale', 'DATABASE_PASSWORD', () => `pscale_pw_${chars(43, B64URL)}`, 2);
prefixed('databricks-token', 'Databricks', 'DATABRICKS_TOKEN', () => `dapi${hex(32)}`, 2);
prefixed('hashicorp-vault-token', 'Vault', 'VAULT_TOKEN', () => `hvs.${chars(90, B64URL)}`, 2);
prefixed('terraform-token', 'Terraform', 'TFE_TOKEN', () => `${chars(14)}.atlasv1.${chars(67, B64URL)}`, 2);
prefixed('pulumi-token', 'Pulumi', 'PULUMI_ACCESS_TOKEN', () => `pul-${hex(40)}`, 2);
prefixed('doppler-token', 'Doppler', 'DOPPLER_TOKEN', () => `dp.st.prd.${chars(40)}`, 2);

// --- SaaS and observability --------------------------------------------------------------------
prefixed('datadog-key', 'Datadog', 'DD_API_KEY', () => hex(32), 2, ['env', 'yaml', 'shell']);
prefixed('newrelic-key', 'New Relic', 'NEW_RELIC_API_KEY', () => `NRAK-${chars(27, UPPER + DIGITS)}`, 2);
prefixed('sentry-token', 'Sentry', 'SENTRY_AUTH_TOKEN', () => `sntrys_${chars(90, B64URL)}`, 2);
prefixed('grafana-token', 'Grafana', 'GRAFANA_TOKEN', () => `glsa_${chars(32)}_${hex(8)}`, 2);
prefixed('linear-key', 'Linear', 'LINEAR_API_KEY', () => `lin_api_${chars(40)}`, 2);
prefixed('notion-token', 'Notion', 'NOTION_TOKEN', () => `ntn_${digits(11)}${chars(35)}`, 2);
prefixed('atlassian-token', 'Atlassian', 'JIRA_API_TOKEN', () => `ATATT3xFfGF0${chars(170, B64URL)}=${hex(8).toUpperCase()}`, 2);
prefixed('postman-key', 'Postman', 'POSTMAN_API_KEY', () => `PMAK-${hex(24)}-${hex(34)}`, 2);
prefixed('onepassword-token', '1Password', 'OP_SERVICE_ACCOUNT_TOKEN', () => `ops_eyJ${chars(200, B64URL)}`, 1);
prefixed('age-secret-key', 'age', 'SOPS_AGE_KEY', () => `AGE-SECRET-KEY-1${chars(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`, 2);

// --- tokens in protocols ------------------------------------------------------------------------
function jwt(): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify({ sub: digits(8), name: 'Jo', iat: 1716000000 + int(0, 99999), role: 'admin' })).toString(
    'base64url',
  );
  return `${head}.${body}.${chars(43, B64URL)}`;
}
prefixed('jwt', 'Auth0', 'ID_TOKEN', jwt, 4);
{
  const t = chars(40, B64URL);
  add('bearer-token', 'shell', `curl -s https://api.example.com/v1/me -H "Authorization: Bearer ${t}"`, t);
  const t2 = `${chars(24)}.${chars(16)}`;
  add('bearer-token', 'log', `> GET /v1/orders HTTP/1.1\n> Host: api.example.com\n> Authorization: Bearer ${t2}\n> Accept: */*`, t2);
}
{
  const pairs: [string, string][] = [
    ['admin', `${chars(8)}-prod`],
    ['svc_backup', `${chars(12)}!`],
    ['deploy', chars(16)],
  ];
  for (const [form, [user, pw]] of (['http-header', 'shell', 'code-py'] as const).map((f, i) => [f, pairs[i]!] as const)) {
    const basic = Buffer.from(`${user}:${pw}`).toString('base64');
    const text =
      form === 'http-header'
        ? `GET /admin HTTP/1.1\nHost: intranet.example\nAuthorization: Basic ${basic}`
        : form === 'shell'
          ? `curl -H "Authorization: Basic ${basic}" https://ci.example.org/job/build/api/json`
          : `headers = {"Authorization": "Basic ${basic}", "Accept": "application/json"}`;
    add('basic-auth', form, text, basic);
  }
}

// --- databases and connection strings ------------------------------------------------------------
{
  const urls: [string, string, string][] = [
    ['postgres', 'prose', 'the app connects with'],
    ['mysql', 'env', 'DATABASE_URL='],
    ['mongodb+srv', 'code-js', 'mongoose.connect("'],
    ['redis', 'yaml', 'redis:\n  url: '],
    ['amqp', 'stack-trace', 'pika.exceptions.ProbableAuthenticationError: '],
    ['https', 'shell', 'git clone '],
  ];
  for (const [scheme, form, lead] of urls) {
    const pw = `${chars(10)}${pick(['!', '_', '-', '.'])}${digits(2)}`;
    const user = pick(['app', 'admin', 'root', 'svc']);
    const host = pick(['db.internal', 'cluster0.ab1cd.mongodb.net', '10.0.4.17:5432', 'git.example.com']);
    const url = `${scheme}://${user}:${pw}@${host}/${pick(['main', 'prod', 'acme/tools.git'])}`;
    const text =
      form === 'prose' ? `${lead} ${url} but the pool keeps timing out` : form === 'code-js' ? `${lead}${url}");` : `${lead}${url}`;
    add('url-password', form, text, pw);
  }
  const redisPw = chars(24);
  add('url-password', 'env', `REDIS_URL=redis://:${redisPw}@cache.internal:6379/0`, redisPw);
}
{
  const pw = `${chars(10)}!${digits(2)}`;
  add(
    'connection-string',
    'json',
    `"ConnectionStrings": {\n  "Default": "Server=tcp:acme.database.windows.net,1433;Initial Catalog=orders;User ID=appadmin;Password=${pw};Encrypt=True;"\n}`,
    pw,
  );
  const pw2 = `${chars(12)}`;
  add('connection-string', 'code-cs', `var cs = "Host=db.internal;Port=5432;Database=app;Username=app;Password=${pw2}";`, pw2);
  const pw3 = `${chars(9)}#${digits(3)}`;
  add('connection-string', 'prose', `use Data Source=sql01;Initial Catalog=crm;User Id=sa;Pwd=${pw3}; in the config`, pw3);
  const pw4 = chars(14);
  add('connection-string', 'code-java', `String url = "jdbc:mysql://db.internal:3306/app?user=app&password=${pw4}&useSSL=true";`, pw4);
}
{
  const pw = `hunter2-${pick(['prod', 'live', 'main'])}${digits(2)}`;
  add('dotenv-secret', 'env', `DB_HOST=localhost\nDB_USER=app\nDB_PASSWORD=${pw}\nDB_NAME=app`, pw);
  const sk = chars(50, ALNUM + '!@#%^&*(-_=+)');
  add('dotenv-secret', 'env', `DEBUG=False\nSECRET_KEY=${sk}\nALLOWED_HOSTS=example.com`, sk);
  const api = chars(32);
  add('dotenv-secret', 'env', `API_KEY=${api}\nAPI_URL=https://api.example.com`, api);
  const pw2 = `${chars(11)}${digits(2)}`;
  add('dotenv-secret', 'shell', `$ cat .env\nPOSTGRES_USER=app\nPOSTGRES_PASSWORD=${pw2}\n$ docker compose up -d`, pw2);
  const tok = chars(40);
  add('dotenv-secret', 'env', `export AUTH_TOKEN=${tok}`, tok);
  const cs = chars(36, ALNUM + '-_');
  add('dotenv-secret', 'env', `OAUTH_CLIENT_ID=client-42\nOAUTH_CLIENT_SECRET=${cs}`, cs);
  const jwtSecret = chars(48);
  add('dotenv-secret', 'prose', `in my .env I have JWT_SECRET=${jwtSecret} and the tokens still fail to verify`, jwtSecret);
  const pw3 = `${chars(7)}$${digits(4)}`;
  add(
    'dotenv-secret',
    'docker-compose',
    `services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_PASSWORD=${pw3}`,
    pw3,
  );
}
{
  const pw = `${chars(10)}${digits(2)}`;
  add('yaml-secret', 'yaml', `database:\n  host: db.internal\n  user: app\n  password: ${pw}\n  pool: 10`, pw);
  const pw2 = `${chars(8)}!${chars(4)}`;
  add('yaml-secret', 'yaml', `spring:\n  datasource:\n    username: app\n    password: "${pw2}"`, pw2);
  const secret = chars(32);
  add('yaml-secret', 'yaml', `oauth:\n  client_id: web-app\n  client_secret: ${secret}`, secret);
  const tok = chars(40);
  add('yaml-secret', 'yaml', `smtp:\n  host: smtp.example.com\n  api_key: ${tok}`, tok);
  const b = b64(18);
  add('yaml-secret', 'k8s', `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: ${b}`, b);
}
{
  const pw = `${chars(9)}${digits(3)}`;
  add('cli-password', 'shell', `$ mysql -h db.internal -u root -p${pw} app < dump.sql`, pw);
  const pw2 = `${chars(10)}!`;
  add('cli-password', 'shell', `$ sshpass -p '${pw2}' ssh deploy@10.0.0.5`, pw2);
  const pw3 = chars(14);
  add('cli-password', 'shell', `PGPASSWORD=${pw3} psql -h db.internal -U app -d main -c 'select 1'`, pw3);
  const pw4 = `${chars(8)}${digits(4)}`;
  add('cli-password', 'shell', `docker login -u ci-bot --password ${pw4} registry.example.io`, pw4);
}
{
  const pw = `${chars(8)}${digits(3)}!`;
  add('prose-password', 'prose', `the admin login is maria / ${pw} if you need to check the dashboard`, pw);
  const pw2 = `${chars(9)}${digits(2)}`;
  add('prose-password', 'prose', `My wifi password is ${pw2}, can you help me set up the printer?`, pw2);
  const pw3 = `${chars(7)}#${digits(3)}`;
  add('prose-password', 'prose', `password: ${pw3}\nusername: jsmith`, pw3);
}
{
  const secret = chars(40);
  add(
    'assigned-secret',
    'code-js',
    `const config = {\n  clientSecret: '${secret}',\n  redirectUri: 'https://app.example.com/callback',\n};`,
    secret,
  );
  const secret2 = chars(32);
  add('assigned-secret', 'code-go', `var apiKey = "${secret2}"\nreq.Header.Set("X-Api-Key", apiKey)`, secret2);
  const secret3 = chars(24);
  add('assigned-secret', 'toml', `[server]\nport = 8080\nsecret_key = "${secret3}"`, secret3);
  const secret4 = chars(36);
  add('assigned-secret', 'http-header', `X-API-Key: ${secret4}\nContent-Type: application/json`, secret4);
}

// --- key files -----------------------------------------------------------------------------------
const keyBody = (lines: number) => Array.from({ length: lines }, () => chars(64, B64)).join('\n');
for (const [label, form] of [
  ['RSA PRIVATE KEY', 'prose'],
  ['OPENSSH PRIVATE KEY', 'shell'],
  ['EC PRIVATE KEY', 'code-py'],
  ['ENCRYPTED PRIVATE KEY', 'prose'],
  ['PGP PRIVATE KEY BLOCK', 'prose'],
] as const) {
  const body = keyBody(6);
  const block = `-----BEGIN ${label}-----\n${label.startsWith('PGP') ? '\n' : ''}${body}\n-----END ${label}-----`;
  const text =
    form === 'shell'
      ? `$ cat ~/.ssh/id_ed25519\n${block}\n$ ssh -i ~/.ssh/id_ed25519 deploy@host`
      : form === 'code-py'
        ? `KEY = """${block}"""`
        : `here's the key:\n${block}\nwhy won't it load?`;
  add('private-key', form, text, body.split('\n')[1]!, body.split('\n')[4]!);
}
{
  const priv = Array.from({ length: 4 }, () => chars(64, B64)).join('\n');
  add(
    'putty-key',
    'file',
    `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@build\nPublic-Lines: 2\n${chars(64, B64)}\n${chars(20, B64)}\nPrivate-Lines: 4\n${priv}\nPrivate-MAC: ${hex(64)}`,
    priv.split('\n')[0]!,
    priv.split('\n')[3]!,
  );
}

// --- benign look-alikes ------------------------------------------------------------------------
for (let i = 0; i < 8; i++)
  benign(
    'git-sha',
    pick([
      `Fixed in ${hex(40)}.`,
      `git revert ${hex(40)}`,
      `commit ${hex(40)}\nAuthor: Jo <jo@example.com>`,
      `cherry-picked ${hex(7)} and ${hex(40)}`,
    ]),
  );
for (let i = 0; i < 6; i++)
  benign('sha256', pick([`sha256sum: ${hex(64)}  release.tar.gz`, `The file's SHA-256 is ${hex(64)}.`, `"checksum": "${hex(64)}"`]));
for (let i = 0; i < 7; i++)
  benign(
    'uuid',
    pick([
      `Request id ${uuid()} failed with 502.`,
      `{"id": "${uuid()}", "status": "ok"}`,
      `conversation ${uuid()} was archived`,
      `trace_id=${uuid()} span=${hex(16)}`,
    ]),
  );
for (let i = 0; i < 5; i++) benign('base64-image', `![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${chars(120, B64)}==)`);
for (let i = 0; i < 3; i++) benign('base64-image', `<img src="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ${chars(150, B64)}" alt="photo">`);
for (let i = 0; i < 4; i++) benign('integrity', `"integrity": "sha512-${chars(86, B64)}=="`);
for (let i = 0; i < 4; i++) benign('docker-digest', `FROM node:20-alpine@sha256:${hex(64)}`);
for (const text of [
  'The AWS docs use AKIAIOSFODNN7EXAMPLE as the example access key id.',
  'Example from the AWS CLI guide: aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE',
  'export OPENAI_API_KEY=sk-...your key here...',
  'Set OPENAI_API_KEY="sk-xxxxxxxxxxxxxxxxxxxxxxxx" in your shell (placeholder).',
  'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'api_key: <YOUR_API_KEY>',
  'Authorization: Bearer <token>',
  'Authorization: Bearer $TOKEN',
  'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" https://api.github.com/user',
  'DB_PASSWORD=${DB_PASSWORD}',
  'password: ${POSTGRES_PASSWORD}',
  'SECRET_KEY={{ secret_key }}',
  'API_KEY=your-api-key-here',
  'STRIPE_SECRET_KEY=sk_test_...',
  'Replace REPLACE_ME with your token: TELEGRAM_BOT_TOKEN=REPLACE_ME',
  'password = "********"',
  'client_secret: "<client-secret>"',
  'Stripe test cards: use 4242 4242 4242 4242 with any future date (documented test number).',
  'Example IBAN from the ECB docs: DE89 3704 0044 0532 0130 00 (example)',
])
  benign('doc-example', text);
for (const text of [
  'const key = process.env.OPENAI_API_KEY;',
  'api_key = os.environ["ANTHROPIC_API_KEY"]',
  'password = getpass.getpass("Password: ")',
  'DB_PASSWORD=',
  'password: ""',
  'token: null',
  'valueFrom:\n  secretKeyRef:\n    name: db-credentials\n    key: password',
  'if (!apiKey) throw new Error("Missing API key: set API_KEY in your .env");',
  'aws_secret_access_key = <redacted>',
  'AWS_SECRET_ACCESS_KEY=$(vault kv get -field=secret aws/ci)',
  'export GITHUB_TOKEN=$(gh auth token)',
  'password_min_length: 12\npassword_hasher: argon2id',
  'AUTH_TYPE=password\nTOKEN_TTL=3600\nSESSION_COOKIE=secure',
  'API_KEY_HEADER=X-Api-Key',
  'secret_name: prod/db/password',
  'PASSWORD_RESET_URL=https://example.com/reset',
  'token_endpoint: https://auth.example.com/oauth2/token',
  'read -s -p "Password: " PASSWORD',
])
  benign('config-reference', text);
for (let i = 0; i < 12; i++)
  benign(
    'identifier',
    pick([
      `chatcmpl-${chars(29)} finished with stop`,
      `msg_01${chars(22)} was streamed`,
      `Stripe customer cus_${chars(14)} has 3 invoices (ids are not secrets)`,
      `payment intent pi_${chars(24)} succeeded`,
      `arn:aws:iam::${digits(12)}:role/ci-deploy`,
      `instance i-0${hex(16)} is running, ami-0${hex(16)}`,
      `YouTube video id ${chars(11, B64URL)}`,
      `req_${chars(24)} took 140ms`,
      `Slack channel C0${chars(8, UPPER + DIGITS)} and user U0${chars(8, UPPER + DIGITS)}`,
      `order #${digits(9)} shipped`,
      `ticket JIRA-${digits(4)} and PR #${digits(4)}`,
      `session ${hex(32)} expired after 30 minutes`,
    ]),
  );
for (const text of [
  'const handleSubmitButtonClickEventListenerCallback = useCallback(() => submit(form), [form]);',
  '.sk-button-primary-large-variant-2 { color: var(--accent); }',
  'I use sk-learn (scikit-learn) for the regression and xgboost for the rest.',
  'export const SECRET_MENU_ITEMS_FOR_ADMINISTRATORS = ["audit", "users"];',
  'import { getAccessTokenSilently } from "@auth0/auth0-react";',
  'function verifyPassword(plain, hash) { return argon2.verify(hash, plain); }',
  'const TOKEN_REGEX = /^[A-Za-z0-9_-]{20,}$/;',
  'assert.equal(tokenize("hello world").length, 2);',
  'npm install @sendgrid/mail @slack/web-api stripe twilio',
  'git log --oneline | head -20',
  'for (const [key, value] of Object.entries(secretsByKind)) console.log(key, value);',
  'The bearer of this letter is a friend; bearer bonds are old news.',
  'Bearer tokens are described in RFC 6750, section 2.1.',
  'Rotate your API keys every 90 days and never paste them into chats.',
  'The password must be at least 12 characters and contain a digit.',
  'My password manager generated a 24-character password for the bank.',
  'Password: see the vault entry. The token budget is 58k; the api key goes in .env.',
  'AWS key ids start with AKIA and GitHub tokens with ghp_ or github_pat_.',
  'A JWT starts with eyJ, as in eyJhbGciOi... (truncated for the slide).',
  'The secret to a good sourdough is a long, cold proof.',
  'Our API key rotation job runs nightly at 02:00 UTC.',
  'xoxo, see you at the garden.',
  'Use SG. as the prefix check for SendGrid keys in the linter rule.',
  'Telegram bot tokens look like 123456:ABC-DEF... per the BotFather docs.',
  'Discord tokens have three dot-separated parts; the first is the base64 user id.',
  'The password field is hidden with type="password".',
  'Please reset my password, I forgot it after the holidays.',
  'The key to the garden shed is under the third stone.',
])
  benign('prose-code', text);
for (const text of [
  `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(43, B64)} jo@laptop`,
  `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${chars(300, B64)} deploy@ci`,
  `-----BEGIN PUBLIC KEY-----\n${keyBody(5)}\n-----END PUBLIC KEY-----`,
  `-----BEGIN CERTIFICATE-----\n${keyBody(8)}\n-----END CERTIFICATE-----`,
  `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${keyBody(6)}\n-----END PGP PUBLIC KEY BLOCK-----`,
  `age1${chars(58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')} is my age public key`,
])
  benign('public-key', text);
{
  // Numbers that look like cards or IBANs but fail their checksums, and other long numbers.
  for (let i = 0; i < 6; i++) {
    const good = card(pick(['4', '51', '6011']), 16);
    const bad = good.slice(0, 15) + String((Number(good[15]) + int(1, 9)) % 10);
    benign('number', pick([`Order number ${bad} is delayed.`, `tracking: ${spaced(bad)}`, `invoice ${bad}`]));
  }
  for (let i = 0; i < 4; i++) {
    const good = iban(pick(['DE', 'GB', 'FR']), digits(18));
    const bad = good.slice(0, 2) + String((Number(good.slice(2, 4)) + int(1, 50)) % 100).padStart(2, '0') + good.slice(4);
    benign('number', `reference ${bad} (internal ledger code)`);
  }
  for (const text of [
    'Call me at +1 415 555 0134 or +44 20 7946 0958.',
    `Unix time ${1700000000000 + int(0, 9999999)} ms`,
    'ISBN 978-0-306-40615-7',
    'Tracking 1Z999AA10123456784 (UPS)',
    'MAC 3c:22:fb:91:0a:4e, IPv6 2001:db8:85a3::8a2e:370:7334',
    'Colours: #1e90ff, #ff6347, #2e8b57',
    'Version 2.14.0-rc.3+build.20240501',
    'Coordinates 52.520008, 13.404954',
  ])
    benign('number', text);
}
for (const text of [
  'https://example.com/search?q=japanese+maple&page=2',
  'git@github.com:acme/tools.git',
  'ssh deploy@10.0.0.5 -p 2222',
  'mailto:jo@example.com?subject=Hello',
  'https://user@example.com/profile (no password in it)',
  'https://docs.example.com/api/keys#rotating-keys',
  'postgres://localhost:5432/app_dev',
  'redis://cache.internal:6379/0',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
  'https://maps.example.com/?ll=52.52,13.40&z=12',
  'https://github.com/acme/tools/blob/3f786850e387550fdab836ed7e6dc881de23001b/README.md',
  'ftp://ftp.example.org/pub/README',
])
  benign('url', text);
for (let i = 0; i < 6; i++)
  benign(
    'encoded',
    pick([
      `const greeting = atob("${Buffer.from('hello from the garden, see you tomorrow').toString('base64')}");`,
      `font-src data:font/woff2;base64,d09GMgABAAAAA${chars(80, B64)}`,
      `"thumbnail": "UklGR${chars(60, B64)}"`,
      `bitcoin address bc1q${chars(38, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}`,
      `ETH 0x${hex(40)} (public address for donations)`,
      `ETag: "${hex(32)}"`,
    ]),
  );
for (const text of [
  'package-lock.json: "resolved": "https://registry.npmjs.org/zod/-/zod-4.6.7.tgz"',
  'yarn.lock: checksum 10c0/4f2a1b8d3c9e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0',
  'Cargo.lock: checksum = "4b2d0dfb8b8e08cba6c4bd9a6c37ebc0f7d2a6a2b1d0d0e8b6d8f5a2e3c4b5a6"',
  'go.sum: golang.org/x/crypto v0.21.0 h1:X31++rzVUdKhX5sWmSOFZxx8UW/ldWx55cbf08iNAMA=',
  'poetry.lock: content-hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
])
  benign('lockfile', text);

const corpus = {
  note: 'Generated by scripts/make-secrets-corpus.ts with a fixed seed. Every secret here is FAKE: random characters in the shape of a real key. Do not use them; do not report them.',
  seed: SEED,
  secrets: secretCases,
  benign: benignCases,
};
writeFileSync(OUT, JSON.stringify(corpus, null, 1) + '\n');
const kinds = new Set(secretCases.map((c) => c.kind));
console.log(`${secretCases.length} secret cases over ${kinds.size} kinds, ${benignCases.length} benign cases -> ${OUT}`);
