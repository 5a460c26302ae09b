/** The prefilter picks every rule that could match, in rule order, and no rule that cannot. */
import { describe, expect, it } from 'vitest';
import { candidateRules } from '../../../src/lib/core/safety/secret-prefilter';
import type { SecretRule } from '../../../src/lib/core/safety/secret-rules';

const hint = /pass|token/i;
const rules: SecretRule[] = [
  { kind: 'github-token', prefixes: ['ghp_', 'gho_'], pattern: /gh[po]_\w+/dg },
  { kind: 'password', hint, pattern: /pass\w*=\S+/dgi },
  { kind: 'private-key', prefixes: ['PRIVATE KEY'], pattern: /PRIVATE KEY/dg },
  { kind: 'aws-session-token', hint, pattern: /token=\S+/dgi },
  { kind: 'openai-key', prefixes: ['sk-'], pattern: /sk-\w+/dg },
  { kind: 'jwt', pattern: /eyJ\w+/dg },
];
const kinds = (text: string) => candidateRules(text, rules).map((r) => r.kind);

describe('candidateRules', () => {
  it('picks nothing for text that holds no prefix or hint, but keeps a rule with neither', () => {
    expect(kinds('the maple needs water')).toEqual(['jwt']);
  });

  it('picks the rules of every prefix seen, and every rule of a hint that matched, in rule order', () => {
    expect(kinds('sk-abc then ghp_xyz, password=1')).toEqual(['github-token', 'password', 'aws-session-token', 'openai-key', 'jwt']);
  });

  it('sees a prefix with a space in it across a run of white space (the rule decides)', () => {
    expect(kinds('-----BEGIN PRIVATE \t KEY-----')).toContain('private-key');
    expect(kinds('gho_1 and PRIVATE\nKEY')).toEqual(['github-token', 'jwt']);
  });

  it('is case-sensitive for prefixes, as the patterns are', () => {
    expect(kinds('GHP_abc SK-1')).toEqual(['jwt']);
  });
});
