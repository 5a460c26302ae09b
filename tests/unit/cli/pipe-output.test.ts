import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chatgptConversation, text, type NodeSpec } from '../../factories/import-fixtures';

/**
 * The CLI as a person runs it, in its own process with stdout a pipe (`engram ... --json | jq`):
 * a pipe takes 64 KiB at a time, so a process that exits before its output drains loses the rest.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'engram-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONVERSATIONS = 200;

/** A ChatGPT export whose every message holds a decision, a constraint and an action: > 1 MB of candidates. */
function writeExport(): string {
  const conversations = Array.from({ length: CONVERSATIONS }, (_, c) => {
    const nodes: NodeSpec[] = [{ id: `c${c}-root`, parent: null, empty: true }];
    for (let t = 0; t < 6; t++) {
      nodes.push({
        id: `c${c}-m${t}`,
        parent: nodes.at(-1)!.id,
        role: t % 2 ? 'assistant' : 'user',
        time: 1_700_000_000 + c * 100 + t,
        content: text(
          `We decided to deploy service ${c}-${t} on Friday after the review. ` +
            `The budget for cluster ${c} is limited to ${t} nodes. Run the rollback script for tenant ${c}.`,
        ),
      });
    }
    return chatgptConversation(nodes, nodes.at(-1)!.id, { id: `conv-${c}`, title: `Deploy plan ${c}` });
  });
  const path = join(dir, 'export.json');
  writeFileSync(path, JSON.stringify(conversations));
  return path;
}

/** Runs `engram <argv>` (as `npm run engram` does) with stdout and stderr read through pipes. */
function runThroughPipe(argv: string[]): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules/.bin/tsx'), ['--import', './scripts/node-resolve.js', 'src/cli/main.ts', ...argv], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out), err: Buffer.concat(err).toString('utf8') }));
  });
}

describe('engram CLI through a pipe', () => {
  it('writes every byte of a > 1 MB JSON answer and exits 0 after it drained', async () => {
    const { code, out, err } = await runThroughPipe(['extract', writeExport(), '--json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out.length).toBeGreaterThan(1024 * 1024);
    const json = JSON.parse(out.toString('utf8')) as { importStatus: string; conversations: { candidates: unknown[] }[] };
    expect(json.importStatus).toBe('done');
    expect(json.conversations).toHaveLength(CONVERSATIONS);
    expect(json.conversations.every((c) => c.candidates.length > 0)).toBe(true);
    // The answer ends where JSON.stringify ended it, plus the one newline the CLI adds.
    expect(out.toString('utf8').endsWith('}\n')).toBe(true);
  }, 120_000);

  it("keeps a failing command's exit status and its whole error through the pipe", async () => {
    const { code, out, err } = await runThroughPipe(['import', join(dir, 'missing.json'), '--json']);
    expect(err).toBe('');
    expect(code).toBe(2);
    expect(JSON.parse(out.toString('utf8'))).toEqual({
      error: expect.objectContaining({ code: 'cli/usage', message: expect.stringContaining('missing.json does not exist') }),
    });
  }, 60_000);
});
