import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { CURRENT_SCHEMA_VERSION } from '../../../src/lib/store/schema';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe('engram CLI', () => {
  it('--help lists the commands', async () => {
    const { io, out } = capture();
    expect(await main(['--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/Usage: npm run engram -- <command>/);
    expect(out.join('\n')).toMatch(/version\s+Print the app version/);
  });

  it('version prints text by default and JSON with --json', async () => {
    const text = capture();
    expect(await main(['version'], text.io)).toBe(0);
    expect(text.out[0]).toMatch(new RegExp(`^engram-vault \\d+\\.\\d+\\.\\d+ \\(vault schema v${CURRENT_SCHEMA_VERSION}, Node \\d+`, 'u'));

    const json = capture();
    expect(await main(['version', '--json'], json.io)).toBe(0);
    expect(JSON.parse(json.out[0]!)).toEqual({
      name: 'engram-vault',
      version: expect.any(String),
      schemaVersion: CURRENT_SCHEMA_VERSION,
      node: process.versions.node,
    });
  });

  it('an unknown command is a usage error (exit 2) with the help text', async () => {
    const { io, err } = capture();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/Unknown command "frobnicate"/);
  });
});
