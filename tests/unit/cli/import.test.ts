import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../factories/cli';

const run = runCli;

const TRANSCRIPT = 'User: what is the plan?\nAssistant: ship the importer first.\nUser: agreed, importer first.';

describe('engram import', () => {
  it('imports several paths in order into one vault and prints the JSON report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
    writeFileSync(join(dir, 'a.txt'), TRANSCRIPT);
    writeFileSync(join(dir, 'b.md'), TRANSCRIPT);
    const { code, out } = await run(['import', join(dir, 'a.txt'), join(dir, 'b.md'), '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { files: Record<string, unknown>[]; totals: Record<string, unknown> };
    expect(report.files).toHaveLength(2);
    expect(report.files[0]).toMatchObject({
      path: join(dir, 'a.txt'),
      format: 'transcript',
      conversations: { found: 1, stored: 1, existing: 0, skipped: 0 },
      messages: { found: 3, stored: 3, existing: 0, skipped: 0, otherBranches: 0, hidden: 0 },
      redactions: 0,
      flags: 0,
      errors: [],
    });
    expect(report.files[1]).toMatchObject({ conversations: { stored: 0, existing: 1 }, messages: { stored: 0, existing: 3 } });
    expect(report.totals).toMatchObject({
      conversations: { found: 2, stored: 1, existing: 1 },
      messages: { found: 6, stored: 3, existing: 3 },
    });
  });

  it('--dump writes every stored row as JSON lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
    writeFileSync(join(dir, 'a.txt'), TRANSCRIPT);
    const dump = join(dir, 'rows.jsonl');
    const { code } = await run(['import', dir, '--dump', dump]);
    expect(code).toBe(0);
    const rows = readFileSync(dump, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { table: string; row: Record<string, unknown> });
    expect(rows.filter((r) => r.table === 'conversations')).toHaveLength(1);
    const messages = rows.filter((r) => r.table === 'messages').sort((a, b) => (a.row.ordinal as number) - (b.row.ordinal as number));
    expect(messages.map((r) => r.row.text)).toEqual(['what is the plan?', 'ship the importer first.', 'agreed, importer first.']);
    expect(rows.filter((r) => r.table === 'imports')).toHaveLength(1);
  });

  it('a failed file exits 1 with its error in the report; a missing path is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
    writeFileSync(join(dir, 'empty.json'), '');
    const failed = await run(['import', join(dir, 'empty.json'), '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out).files[0].errors[0].code).toBe('import/empty');
    const missing = await run(['import', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/does not exist/);
  });
});

describe('engram import --vault', () => {
  it('imports into a vault file, creating it, and a second run finds what the file holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
    writeFileSync(join(dir, 'a.txt'), TRANSCRIPT);
    const vaultFile = join(dir, 'my.engram');
    const first = await run(['import', join(dir, 'a.txt'), '--vault', vaultFile, '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).totals.messages).toMatchObject({ stored: 3, existing: 0 });
    expect(readFileSync(vaultFile, 'utf8').split('\n', 1)[0]).toContain('"format"');
    const second = await run(['import', join(dir, 'a.txt'), '--vault', vaultFile, '--json']);
    expect(JSON.parse(second.out).totals.messages).toMatchObject({ stored: 0, existing: 3 });
  });

  it('an option without its value is a usage error', async () => {
    expect((await run(['import', 'x.json', '--vault'])).code).toBe(2);
  });
});

describe('engram recall --vault', () => {
  it('recalls from a stored vault file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
    writeFileSync(join(dir, 'a.txt'), 'User: which soil does moss need?\nAssistant: Moss needs shade and acidic, compacted soil.');
    const vaultFile = join(dir, 'my.engram');
    expect((await run(['import', join(dir, 'a.txt'), '--vault', vaultFile])).code).toBe(0);
    const recalled = await run(['recall', 'moss soil', '--vault', vaultFile, '--json']);
    expect(recalled.code).toBe(0);
    const json = JSON.parse(recalled.out) as { package: { text: string }; vault: { conversations: number } };
    expect(json.vault.conversations).toBe(1);
    expect(json.package.text).toContain('acidic, compacted soil');
  });
});
