/**
 * Secret redaction, applied before anything is stored (write time) and again before anything is
 * copied out (read time). People paste keys into chats; the vault must not keep them, and a
 * recall package must never carry one into another prompt.
 *
 * Each rule names the kind it redacts; a match becomes `[REDACTED:<kind>]`, or for rules with a
 * context (a `Bearer` prefix, an `aws_secret_access_key =` label, a URL's user) only the secret
 * part is replaced so the sentence still reads. Rules are ordered specific-first (an Anthropic key
 * starts with `sk-` too). Patterns are anchored on token boundaries and, where real keys always
 * have them, require a digit, to keep ordinary prose (`sk-learn`, "the bearer of this letter",
 * git SHAs) untouched; both directions are tested.
 */

export type SecretKind =
  | 'private-key'
  | 'anthropic-key'
  | 'openai-key'
  | 'aws-access-key-id'
  | 'aws-secret-key'
  | 'github-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'google-api-key'
  | 'stripe-key'
  | 'huggingface-token'
  | 'npm-token'
  | 'jwt'
  | 'bearer-token'
  | 'url-password'
  | 'assigned-secret';

export interface SecretRule {
  kind: SecretKind;
  pattern: RegExp;
  /** Index of the capture group holding the secret; the whole match when absent. */
  group?: number;
  /**
   * A cheap test every match must pass (a fixed prefix or keyword): when the text fails it, the
   * rule's full pattern is not run. Most chat text holds no secret, and some patterns are costly
   * to scan (a scheme at every word start, say).
   */
  hint?: RegExp;
}

/** Not preceded by a token character: keys inside longer identifiers are not keys. */
const B = '(?<![A-Za-z0-9_-])';
/** Not followed by a token character. */
const E = '(?![A-Za-z0-9_-])';

export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    hint: /PRIVATE KEY/,
    // A whole PEM/OpenSSH/PGP private key block, or a cut-off one (BEGIN and its base64 lines).
    // The block may not run into the next BEGIN, so many BEGIN lines without an END stay linear.
    pattern:
      /-----BEGIN [A-Z0-9 ]{0,20}PRIVATE KEY(?: BLOCK)?-----(?:(?:(?!-----BEGIN )[\s\S]){0,16384}?-----END [A-Z0-9 ]{0,20}PRIVATE KEY(?: BLOCK)?-----|(?:\s*[A-Za-z0-9+/=:-]{8,}[^\S\n]*(?:\n|$))+)/gu,
  },
  { kind: 'anthropic-key', hint: /sk-ant-/, pattern: new RegExp(`${B}sk-ant-(?:[a-z]+\\d{2}-)?[A-Za-z0-9_-]{20,}${E}`, 'gu') },
  // Legacy keys are one unbroken run of letters and digits; project / service keys name their kind.
  {
    kind: 'openai-key',
    hint: /sk-/,
    pattern: new RegExp(`${B}sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|(?=[A-Za-z0-9]*\\d)[A-Za-z0-9]{20,})${E}`, 'gu'),
  },
  {
    kind: 'aws-secret-key',
    hint: /secret/i,
    // Labelled: aws_secret_access_key = "...", SecretAccessKey: ...
    pattern:
      /((?:aws_?secret_?access_?key|aws_?secret(?:_?key)?|secret_?access_?key)["']?\s*[:=]\s*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/giu,
    group: 2,
  },
  {
    kind: 'aws-secret-key',
    hint: /A[KS]IA/,
    // Unlabelled but right after an access key id, mixed case (a git SHA is lowercase hex).
    pattern:
      /(\b(?:AKIA|ASIA)[A-Z0-9]{16}\b[^\n]{1,80}?)(?<![A-Za-z0-9/+])((?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[A-Z])[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gu,
    group: 2,
  },
  { kind: 'aws-access-key-id', hint: /A(?:KIA|SIA|BIA|CCA|3T)/, pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/gu },
  {
    kind: 'github-token',
    hint: /gh[pousr]_|github_pat_/,
    pattern: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})${E}`, 'gu'),
  },
  {
    kind: 'slack-webhook',
    hint: /hooks\.slack\.com/,
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/gu,
  },
  { kind: 'slack-token', hint: /xox/, pattern: new RegExp(`${B}xox[abposre]-(?:\\d+-){1,3}[A-Za-z0-9-]{8,}${E}`, 'gu') },
  { kind: 'google-api-key', hint: /AIza/, pattern: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}${E}`, 'gu') },
  { kind: 'stripe-key', hint: /_(?:live|test)_/, pattern: new RegExp(`${B}(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{20,}${E}`, 'gu') },
  { kind: 'huggingface-token', hint: /hf_/, pattern: new RegExp(`${B}hf_[A-Za-z0-9]{34,}${E}`, 'gu') },
  { kind: 'npm-token', hint: /npm_/, pattern: new RegExp(`${B}npm_[A-Za-z0-9]{36}${E}`, 'gu') },
  { kind: 'jwt', hint: /eyJ/, pattern: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}${E}`, 'gu') },
  { kind: 'bearer-token', hint: /Bearer/, pattern: /(\bBearer\s+)((?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{20,}=*)/gu, group: 2 },
  { kind: 'url-password', hint: /:\/\//, pattern: /(\b[a-z][a-z0-9+.-]{0,15}:\/\/[^\s:/@]{1,128}:)([^\s@/]{3,256})(?=@)/giu, group: 2 },
  {
    kind: 'assigned-secret',
    hint: /key|secret|token|passw/i,
    // api_key = "..." / "password": "..." in code and config; the value must be quoted and not a
    // placeholder (${VAR}, {{var}}, <key>, your-key-here, xxxxxx, ****).
    pattern:
      /((?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|password|passwd)["']?\s*[:=]\s*["'])(?!\$\{|\{\{|<|%\(|your[_-]|x{6}|\*{4}|\.{3})([^"'\s[\]]{8,})(?=["'])/giu,
    group: 2,
  },
];

export interface Redacted {
  text: string;
  /** Redactions per kind; kinds with none are absent. */
  redactions: Partial<Record<SecretKind, number>>;
}

export function redactSecrets(text: string, rules: readonly SecretRule[] = SECRET_RULES): Redacted {
  const redactions: Partial<Record<SecretKind, number>> = {};
  let out = text;
  for (const rule of rules) {
    if (rule.hint && !rule.hint.test(out)) continue;
    out = out.replace(rule.pattern, (match: string, ...groups: unknown[]) => {
      redactions[rule.kind] = (redactions[rule.kind] ?? 0) + 1;
      const marker = `[REDACTED:${rule.kind}]`;
      if (rule.group === undefined) return marker;
      const secret = groups[rule.group - 1];
      const before = rule.group > 1 ? (groups.slice(0, rule.group - 1) as (string | undefined)[]).join('') : '';
      return typeof secret === 'string' ? `${before}${marker}${match.slice(before.length + secret.length)}` : marker;
    });
  }
  return { text: out, redactions };
}

/** Adds counts of `more` into `into` (for totals across messages). */
export function addRedactions(into: Partial<Record<SecretKind, number>>, more: Partial<Record<SecretKind, number>>): void {
  for (const kind of Object.keys(more) as SecretKind[]) into[kind] = (into[kind] ?? 0) + (more[kind] ?? 0);
}
