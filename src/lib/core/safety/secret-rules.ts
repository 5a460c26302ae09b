/**
 * The secret rules, ordered specific-first: where two rules match overlapping text, the earlier
 * one wins (an Anthropic key starts with `sk-` too; a token inside `API_KEY=...` keeps its vendor
 * name). Three families:
 *
 * 1. Vendor tokens with a fixed prefix or shape (`glpat-`, `SG.`, `xoxb-`, a Telegram bot token),
 *    anchored on token boundaries so `sk-learn` or a CSS class stays prose.
 * 2. Labelled values: a secret-named variable in `.env`, YAML, JSON or code, a connection string's
 *    `Password=`, a CLI `--password`, "my password is ...". Only the value is replaced, so the line
 *    still reads; the value must look like a credential (secret-values.ts), never a placeholder.
 * 3. Checked numbers: card numbers (Luhn) and IBANs (mod-97), see secret-checksums.ts.
 *
 * Every pattern has a cheap `hint` (a prefix or keyword): most chat text holds no secret, and the
 * full patterns only run on text that could match.
 */
import { ibanSource, isCardNumber, isIban } from './secret-checksums';
import { isBasicCredential, isCodeExpression, looksLikeCredential, looksLikePassword } from './secret-values';

export const SECRET_KINDS = [
  'private-key',
  'anthropic-key',
  'openai-key',
  'openrouter-key',
  'ai-provider-key',
  'huggingface-token',
  'aws-access-key-id',
  'aws-secret-key',
  'aws-session-token',
  'azure-key',
  'google-api-key',
  'github-token',
  'gitlab-token',
  'npm-token',
  'package-registry-token',
  'ci-token',
  'slack-token',
  'slack-webhook',
  'discord-token',
  'discord-webhook',
  'telegram-bot-token',
  'twilio-key',
  'sendgrid-key',
  'mail-provider-key',
  'stripe-key',
  'payment-token',
  'cloud-token',
  'saas-token',
  'age-secret-key',
  'jwt',
  'bearer-token',
  'basic-auth',
  'url-password',
  'connection-string',
  'env-secret',
  'assigned-secret',
  'password',
  'card-number',
  'iban',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

export interface SecretRule {
  kind: SecretKind;
  /** Global, with indices (`gd`). */
  pattern: RegExp;
  /** Index of the capture group holding the secret; the whole match when absent. */
  group?: number;
  /**
   * Fixed strings every match contains (any one of them): all rules' prefixes are looked for
   * together (secret-prefilter.ts), and a rule runs only when one of its own was seen.
   */
  prefixes?: readonly string[];
  /** Otherwise a cheap test every match must pass (shared objects are tested once per text). */
  hint?: RegExp;
  /**
   * Or a flat global pattern (a list of words: the fastest kind to scan for) whose matches are
   * where the sticky (`y`) `pattern` is tried.
   */
  anchor?: RegExp;
  /** A last check of the secret (a checksum, a credential shape); the match is kept when true. */
  accept?: (secret: string, match: RegExpExecArray) => boolean;
}

/**
 * Not preceded by a letter or digit, not followed by a token character: `sk-learn` or a CSS class
 * is not a key. A key glued after a separator (`conv-ghp_...`, a file `notes_sk-proj-...`) still is.
 */
const B = '(?<![A-Za-z0-9])';
const E = '(?![A-Za-z0-9_-])';
const rx = (source: string, flags = '') => new RegExp(source, `gd${flags}`);

/** `[kind, fixed prefix(es) every match holds, pattern]`: vendor tokens matched whole. */
const PREFIXED: readonly (readonly [SecretKind, string | readonly string[], string])[] = [
  ['anthropic-key', 'sk-ant-', 'sk-ant-(?:[a-z]+\\d{2}-)?[A-Za-z0-9_-]{20,}'],
  ['openrouter-key', 'sk-or-', 'sk-or-v\\d-[0-9a-f]{64}'],
  ['openai-key', 'sk-', 'sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{20,})'],
  ['ai-provider-key', 'gsk_', 'gsk_[A-Za-z0-9]{48,}'],
  ['ai-provider-key', 'xai-', 'xai-[A-Za-z0-9]{60,}'],
  ['ai-provider-key', 'pplx-', 'pplx-[A-Za-z0-9]{40,}'],
  ['ai-provider-key', 'r8_', 'r8_[A-Za-z0-9]{37}'],
  ['huggingface-token', 'hf_', 'hf_[A-Za-z0-9]{34,}'],
  ['github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_[A-Za-z0-9]{36,255}'],
  ['github-token', 'github_pat_', 'github_pat_[A-Za-z0-9_]{22,255}'],
  [
    'gitlab-token',
    ['glpat-', 'glrt-', 'gldt-', 'glptt-', 'glcbt-', 'glft-', 'glimt-', 'gloas-', 'glsoat-', 'glagent-', 'glffct-'],
    'gl(?:pat|rt|dt|ptt|cbt|ft|imt|oas|soat|agent|ffct)-[A-Za-z0-9_-]{20,}',
  ],
  ['npm-token', 'npm_', 'npm_[A-Za-z0-9]{36}'],
  ['package-registry-token', 'pypi-', 'pypi-AgE[A-Za-z0-9_-]{50,}'],
  ['package-registry-token', ['dckr_pat_', 'dckr_oat_'], 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{24,}'],
  ['package-registry-token', 'oy2', 'oy2[a-z0-9]{43}'],
  ['package-registry-token', 'rubygems_', 'rubygems_[0-9a-f]{48}'],
  ['ci-token', 'CCIPAT_', 'CCIPAT_[A-Za-z0-9]{20,}_[0-9a-f]{40}'],
  ['slack-token', 'xox', 'xox[abposre]-(?:\\d+-){1,3}[A-Za-z0-9-]{8,}'],
  ['twilio-key', 'SK', 'SK[0-9a-f]{32}'],
  ['sendgrid-key', 'SG.', 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'],
  ['mail-provider-key', 'key-', 'key-[0-9a-f]{32}'],
  ['mail-provider-key', '-us', '[0-9a-f]{32}-us\\d{1,2}'],
  ['google-api-key', 'AIza', 'AIza[0-9A-Za-z_-]{35}'],
  ['stripe-key', ['sk_live_', 'rk_live_', 'pk_live_'], '(?:sk|rk|pk)_live_[0-9A-Za-z]{20,}'],
  ['stripe-key', ['sk_test_', 'rk_test_'], '(?:sk|rk)_test_[0-9A-Za-z]{20,}'],
  ['stripe-key', 'whsec_', 'whsec_[A-Za-z0-9+/=]{24,}'],
  ['payment-token', 'EAAA', 'EAAA[A-Za-z0-9_-]{60,}'],
  ['payment-token', ['sq0atp-', 'sq0csp-', 'sq0idp-'], 'sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,}'],
  ['payment-token', 'access_token$', 'access_token\\$(?:production|sandbox)\\$[a-z0-9]{16}\\$[0-9a-f]{32}'],
  ['payment-token', ['shpat_', 'shpss_', 'shpca_', 'shppa_'], 'shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}'],
  ['cloud-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], 'do[opr]_v1_[a-f0-9]{64}'],
  ['cloud-token', 'HRKU-', 'HRKU-[A-Za-z0-9_-]{40,}'],
  ['cloud-token', 'nfp_', 'nfp_[A-Za-z0-9]{36}'],
  ['cloud-token', 'fo1_', 'fo1_[A-Za-z0-9_-]{40,}'],
  ['cloud-token', 'sbp_', 'sbp_[a-f0-9]{40}'],
  ['cloud-token', 'pscale_', 'pscale_(?:pw|tkn|oauth)_[A-Za-z0-9_.-]{32,}'],
  ['cloud-token', 'dapi', 'dapi[a-f0-9]{32}(?:-\\d)?'],
  ['cloud-token', ['hvs.', 'hvb.'], 'hv[sb]\\.[A-Za-z0-9_-]{24,}'],
  ['cloud-token', '.atlasv1.', '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}'],
  ['cloud-token', 'pul-', 'pul-[a-f0-9]{40}'],
  [
    'cloud-token',
    ['dp.st.', 'dp.pt.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    'dp\\.(?:st|pt|ct|sa|scim|audit)\\.[A-Za-z0-9_.-]{40,}',
  ],
  ['cloud-token', 'v1.0-', 'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}'],
  ['saas-token', ['NRAK-', 'NRII-', 'NRJS-', 'NRRA-', 'NRRI-'], 'NR(?:AK|II|JS|RA|RI)-[A-Z0-9]{27}'],
  ['saas-token', ['sntrys_', 'sntryu_'], 'sntry[su]_[A-Za-z0-9_=+/-]{60,}'],
  ['saas-token', ['glsa_', 'glc_'], 'gl(?:sa|c)_[A-Za-z0-9+/=_]{32,}'],
  ['saas-token', 'lin_api_', 'lin_api_[A-Za-z0-9]{40}'],
  ['saas-token', 'ntn_', 'ntn_[A-Za-z0-9]{40,}'],
  ['saas-token', 'secret_', 'secret_[A-Za-z0-9]{43}'],
  ['saas-token', 'ATATT', 'ATATT3[A-Za-z0-9_=-]{150,}'],
  ['saas-token', 'PMAK-', 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'],
  ['saas-token', 'ops_', 'ops_eyJ[A-Za-z0-9_-]{100,}'],
  ['age-secret-key', 'AGE-SECRET-KEY-1', 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'],
  ['jwt', 'eyJ', 'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}'],
];

const prefixed = (kind: SecretKind, prefix: string | readonly string[], source: string): SecretRule => ({
  kind,
  prefixes: typeof prefix === 'string' ? [prefix] : prefix,
  pattern: rx(`${B}${source}${E}`),
});

/** Label words: the shared hint of every labelled-value rule (tested once per text). */
const LABEL = /pass|pwd|secret|token|key|auth|credential|login/i;

/** Names whose value is a password: any non-placeholder of 6+ characters counts. */
const PASSWORD_NAME = /pass|pwd/i;
/** The value check for a labelled secret: passwords are anything; other labels need a credential's shape. */
function labelled(nameGroup: number) {
  return (secret: string, match: RegExpExecArray) =>
    PASSWORD_NAME.test(match[nameGroup] ?? '') ? looksLikePassword(secret) : looksLikeCredential(secret);
}

/** The match starts a word (anchored patterns cannot say `\b` cheaply). */
function atWordStart(match: RegExpExecArray): boolean {
  return match.index === 0 || !/[A-Za-z0-9_]/.test(match.input[match.index - 1]!);
}

/** A secret word that ends a variable or key name (`DB_PASSWORD`, `clientSecret`, `api-key`). */
const SECRET_WORD =
  '(?:password|passwd|passphrase|pwd|pass|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|account[_-]?key|_key|auth|credentials?)';

export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    prefixes: ['PRIVATE KEY'],
    // A whole PEM/OpenSSH/PGP private key block, or a cut-off one (BEGIN and its base64 lines).
    // The block may not run into the next BEGIN, so many BEGIN lines without an END stay linear.
    pattern:
      /-----BEGIN [A-Z0-9 ]{0,20}PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----BEGIN )[\s\S]){0,16384}?-----END [A-Z0-9 ]{0,20}PRIVATE KEY(?: BLOCK)?-----|(?:\s*[A-Za-z0-9+/=:-]{8,}[^\S\n]*(?:\n|$))+)/dgu,
  },
  // PuTTY key files: the private lines after their count.
  {
    kind: 'private-key',
    prefixes: ['Private-Lines'],
    pattern: /(Private-Lines:[^\S\n]*\d+[^\S\n]*\n)((?:[A-Za-z0-9+/=]{4,}[^\S\n]*(?:\n|$)){1,64})/dg,
    group: 2,
  },
  ...PREFIXED.map(([kind, prefix, source]) => prefixed(kind, prefix, source)),
  // .npmrc: `//registry.npmjs.org/:_authToken=...` (an npm_ token or a legacy UUID).
  { kind: 'npm-token', prefixes: ['_authToken'], pattern: /(_authToken\s*=\s*["']?)([^\s"'$]{8,})/dg, group: 2 },
  {
    kind: 'aws-secret-key',
    hint: LABEL,
    // Labelled: aws_secret_access_key = "...", SecretAccessKey: ..., AWS_SECRET_ACCESS_KEY=...
    pattern:
      /((?:aws_?secret_?access_?key|aws_?secret(?:_?key)?|secret_?access_?key)["']?\s*[:=]\s*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dgi,
    group: 2,
  },
  {
    kind: 'aws-secret-key',
    prefixes: ['AWS Secret Access Key'],
    // The `aws configure` prompt, with or without the masked old value in brackets.
    pattern: /(AWS Secret Access Key(?: \[[^\]\n]{0,40}\])?:[^\S\n]*)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dg,
    group: 2,
  },
  {
    kind: 'aws-secret-key',
    prefixes: ['AKIA', 'ASIA'],
    // Unlabelled but shortly after an access key id (same line or the next), mixed case (a git
    // SHA is lowercase hex).
    pattern:
      /(\b(?:AKIA|ASIA)[A-Z0-9]{16}\b(?:[^\n]|\n(?!\n)){1,120}?)(?<![A-Za-z0-9/+])((?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dg,
    group: 2,
  },
  {
    kind: 'aws-access-key-id',
    prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'],
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/dg,
  },
  {
    kind: 'aws-session-token',
    prefixes: ['IQoJb3JpZ2luX2Vj', 'FwoGZXIvYXdz'],
    pattern: /(?<![A-Za-z0-9/+=])(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9/+=]{100,}/dg,
  },
  {
    kind: 'aws-session-token',
    hint: /session_?token|security-token/i,
    pattern: /((?:session_?token|x-amz-security-token)["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{100,})/dgi,
    group: 2,
  },
  { kind: 'azure-key', hint: /AccountKey/i, pattern: /(AccountKey\s*=\s*)([A-Za-z0-9+/]{40,}={0,2})/dgi, group: 2 },
  { kind: 'azure-key', prefixes: ['sig='], pattern: /([?&]sig=)([A-Za-z0-9%+/=]{20,})/dg, group: 2 },
  { kind: 'azure-key', prefixes: ['Q~'], pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/dg },
  {
    kind: 'slack-webhook',
    prefixes: ['hooks.slack.com'],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/dg,
  },
  {
    kind: 'discord-webhook',
    prefixes: ['/api/webhooks/'],
    pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{60,}/dg,
  },
  // Base64 of the bot's user id, a timestamp, an HMAC.
  {
    kind: 'discord-token',
    prefixes: ['MT', 'Mj', 'Mz', 'ND', 'NT', 'Nj', 'Nz', 'OD', 'OT'],
    pattern: rx(`${B}[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}${E}`),
  },
  // The bot id and a 35-character secret; inside an API URL it follows the letters "bot".
  { kind: 'telegram-bot-token', prefixes: [':AA'], pattern: rx(`(?<![0-9])\\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`) },
  // An account SID followed by its auth token (`Client("AC...", "...")`).
  {
    kind: 'twilio-key',
    hint: /AC[0-9a-f]{32}/,
    pattern: /(\bAC[0-9a-f]{32}\b["']?\s*[,:]?\s*["']?)([0-9a-f]{32})(?![0-9a-f])/dg,
    group: 2,
  },
  { kind: 'bearer-token', prefixes: ['Bearer'], pattern: /(\bBearer\s+)((?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{20,}=*)/dg, group: 2 },
  {
    kind: 'basic-auth',
    prefixes: ['Basic'],
    pattern: /(\bBasic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dg,
    group: 2,
    accept: isBasicCredential,
  },
  {
    kind: 'basic-auth',
    prefixes: ['"auth"'],
    // Docker's config.json: "auth": base64 of user:password.
    pattern: /("auth"\s*:\s*")([A-Za-z0-9+/]{8,}={0,2})(?=")/dg,
    group: 2,
    accept: isBasicCredential,
  },
  { kind: 'url-password', prefixes: ['://'], pattern: /(\b[a-z][a-z0-9+.-]{0,15}:\/\/[^\s:/@]{0,128}:)([^\s@/]{3,256})(?=@)/dgi, group: 2 },
  {
    kind: 'connection-string',
    hint: /p(?:ass)?w(?:or)?d\s*=/i,
    // ADO.NET / ODBC / Npgsql: `...;Password=...;` (the value runs to the next separator).
    pattern: /((?:^|[;"'\s])(?:password|pwd)\s*=\s*)([^;"'\s]{3,128})(?=\s*[;"']|\s*$)/dgim,
    group: 2,
    accept: (secret) => !isCodeExpression(secret),
  },
  {
    kind: 'connection-string',
    hint: /[?&]pass/i,
    // JDBC and URL query strings: `?user=app&password=...`.
    pattern: /([?&](?:password|passwd|pwd|pass)=)([^&\s"'#]{3,})/dgi,
    group: 2,
  },
  {
    kind: 'password',
    prefixes: ['mysql', 'mariadb'],
    pattern: /(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p)([^\s'"-][^\s'"]{3,})/dg,
    group: 2,
  },
  { kind: 'password', prefixes: ['sshpass'], pattern: /(\bsshpass\s+-p\s*["']?)([^\s'"]{4,})/dg, group: 2 },
  { kind: 'password', prefixes: ['docker'], pattern: /(\bdocker\s+login\b[^\n]*?\s-p\s+["']?)([^\s'"]{4,})/dg, group: 2 },
  {
    kind: 'password',
    prefixes: ['--password'],
    pattern: /(--password(?:=|[^\S\n]+)["']?)([^\s'"-][^\s'"]{3,})/dg,
    group: 2,
    accept: looksLikePassword,
  },
  {
    kind: 'env-secret',
    hint: /(?:PASS|PWD|SECRET|TOKEN|KEY|AUTH|CREDENTIAL)[A-Z0-9_]*\s*=/,
    // `.env` and shell: an UPPER_CASE name ending in a secret word, `=`, an unquoted or quoted
    // value. Like the rules below, matched from the (rare) `=` with the name looked for behind it:
    // a pattern that starts with the names tries them at every position of the text.
    pattern: rx(
      `=(?<=(?<![A-Za-z0-9_$.])(?:export\\s+)?([A-Z][A-Z0-9_]*?(?:PASSWORD|PASSWD|PASSPHRASE|PWD|PASS|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|_KEY|AUTH|CREDENTIALS?))[0-9]*[ \\t]*=)[ \\t]*["']?([^\\s"'\`]{1,512})`,
    ),
    group: 2,
    accept: (secret, match) => !/^(?:OLD)?PWD$/.test(match[1] ?? '') && labelled(1)(secret, match),
  },

  {
    kind: 'assigned-secret',
    hint: LABEL,
    // YAML, INI, headers: a line `name: value` whose name ends in a secret word.
    pattern: rx(
      `[:=](?<=^[ \\t]*(?:-[ \\t]+)?["']?([A-Za-z_][A-Za-z0-9_.-]*?${SECRET_WORD})["']?[ \\t]*[:=])[ \\t]+["']?([^\\s"'#|>!&*][^\\s"']{0,511})`,
      'im',
    ),
    group: 2,
    accept: labelled(1),
  },

  {
    kind: 'assigned-secret',
    hint: LABEL,
    // Code and JSON: `api_key = "..."`, `"password": "..."`, `clientSecret: '...'`.
    pattern: rx(`[:=](?<=(${SECRET_WORD})["']?[ \\t]*[:=])[ \\t]*["']([^"'\\s[\\]]{6,512})(?=["'])`, 'i'),
    group: 2,
    accept: labelled(1),
  },

  {
    kind: 'assigned-secret',
    prefixes: ['-H', '--header'],
    // HTTP headers given on a command line (`curl -H "X-Api-Key: ..."`); at a line start the
    // `name: value` rule above has them.
    pattern: /((?:-H|--header)[ \t=]+["']?((?:X-)?[A-Za-z-]*(?:api-?key|token|secret|access-key))[ \t]*:[ \t]*)([^\s"']{8,})/dgi,
    group: 3,
    accept: labelled(2),
  },
  {
    kind: 'password',
    anchor: /login|credential/gi,
    // "the admin login is maria / hunter2"
    pattern: /((?:login|credentials?)\b[^\n]{0,12}?\b(?:is|are|:)\s+[^\s/]{1,64}\s*\/\s*)([^\s,;]{6,64})/diy,
    group: 2,
    accept: (secret, match) => atWordStart(match) && looksLikeCredential(secret),
  },

  {
    kind: 'password',
    anchor: /password|passwd|passphrase|pwd|api[ _-]?key|secret|access[ _-]?key|account[ _-]?key|auth[ _-]?token|access[ _-]?token|token/gi,
    // Prose: "my wifi password is ...", "the account key from the portal is ...", "auth token ...".
    pattern:
      /(((?:password|passwd|passphrase|pwd|api[ _-]?key|secret(?:[ _-]?key)?|access[ _-]?key|account[ _-]?key|auth[ _-]?token|access[ _-]?token|token))\b(?:[^\n.;,]{0,30}?\b(?:is|was|are))?(?:[ \t]*[:=][ \t]*|[ \t]+)["'`]?)([^\s"'`,;]{6,200}?)(?=["'`]?(?:[\s,;)]|[.!?](?:\s|$)|$))/diy,
    group: 3,
    accept: (secret, match) => atWordStart(match) && looksLikeCredential(secret),
  },

  {
    kind: 'card-number',
    hint: /\d(?:[ -]?\d){12}/,
    pattern: /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/dg,
    accept: isCardNumber,
  },
  {
    kind: 'iban',
    hint: /[A-Z]{2}\d{2}/,
    pattern: rx(ibanSource()),
    accept: isIban,
  },
];
