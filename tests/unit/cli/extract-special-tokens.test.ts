import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../factories/cli';

/** AI-chat archives quote model control strings; extraction must count them as text, not fail. */
const TRANSCRIPT = [
  'User: I decided to strip <|endoftext|> markers from the training logs before the import.',
  'Assistant: Run the cleanup script on the archive first, then import the logs.',
  'User: We will keep the raw dump in cold storage for a month.',
].join('\n');

describe('engram extract on a chat holding <|endoftext|>', () => {
  it('produces candidates instead of failing on the special token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-special-'));
    writeFileSync(join(dir, 'chat.md'), TRANSCRIPT);
    const { code, out } = await runCli(['extract', join(dir, 'chat.md'), '--json']);
    const json = JSON.parse(out) as { error?: unknown; conversations: { candidates: { text: string; category: string }[] }[] };
    expect(json.error).toBeUndefined();
    expect(code).toBe(0);
    expect(json.conversations).toHaveLength(1);
    const candidates = json.conversations[0]!.candidates;
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.some((c) => c.text.includes('<|endoftext|>'))).toBe(true);
  });
});
