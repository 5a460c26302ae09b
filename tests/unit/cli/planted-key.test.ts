/**
 * Every text the vault stores passes write-time safety (issue 14, item 2): a ChatGPT export whose
 * every field holds the same planted key (title, ids, node ids, parts, author name, model slug,
 * the file name) is imported; neither the whole `--dump` of the stored rows nor the exported vault
 * file (plain) contains the key, or a 16-character piece of it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaks } from '../../../src/lib/core/safety/eval/secrets-eval';
import { runCli } from '../../factories/cli';

/** A fake GitHub token (assembled at run time: no key-shaped literal in the repository). */
const KEY = ['ghp', 'Zq8vN3kP1xR7tW2mY5bC9dF4gH6jL0aSxT3u'].join('_');

function plantedExport(): unknown {
  const node = (id: string, parent: string | null, children: string[], role: string | null, text: string | null) => ({
    id,
    parent,
    children,
    message:
      role === null
        ? null
        : {
            id,
            author: { role, name: `bot ${KEY}`, metadata: { note: KEY } },
            create_time: 1716000000,
            content: { content_type: 'text', parts: [text] },
            metadata: { model_slug: `gpt-${KEY}`, note: KEY },
            status: 'finished_successfully',
          },
  });
  const root = `root-${KEY}`;
  const user = `user-${KEY}`;
  const assistant = `assistant-${KEY}`;
  return [
    {
      id: `conv-${KEY}`,
      conversation_id: `conv-${KEY}`,
      title: `${KEY} deploy notes`,
      create_time: 1716000000,
      update_time: 1716000100,
      current_node: assistant,
      mapping: {
        [root]: node(root, null, [user], null, null),
        [user]: node(user, root, [assistant], 'user', `my token is ${KEY} why does push fail`),
        [assistant]: node(assistant, user, [], 'assistant', `Rotate ${KEY} now: it is public.`),
      },
    },
  ];
}

describe('a key planted in every field of an import', () => {
  it('is in no stored row (--dump) and not in the exported vault file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-planted-'));
    const file = join(dir, `conversations-${KEY}.json`);
    writeFileSync(file, JSON.stringify(plantedExport()));
    const dump = join(dir, 'rows.jsonl');
    const vaultFile = join(dir, 'vault.engram');
    const { code, out } = await runCli(['import', file, '--dump', dump, '--vault', vaultFile, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { files: { conversations: { stored: number }; messages: { stored: number }; redactions: number }[] };
    expect(report.files[0]).toMatchObject({ conversations: { stored: 1 }, messages: { stored: 2 } });
    expect(report.files[0]!.redactions).toBeGreaterThanOrEqual(3);
    expect(leaks(out, KEY)).toBe(false);
    const rows = readFileSync(dump, 'utf8');
    expect(rows).toContain('[REDACTED:github-token] deploy notes');
    expect(rows).toContain('my token is [REDACTED:github-token] why does push fail');
    expect(leaks(rows, KEY)).toBe(false);
    const exported = readFileSync(vaultFile, 'utf8');
    expect(exported).toContain('[REDACTED:github-token] deploy notes');
    expect(leaks(exported, KEY)).toBe(false);
  });
});
