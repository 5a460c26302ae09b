import { countTokens, loadTokenCounter } from '../../../src/lib/core/text/token-count';
import { describe, expect, it } from 'vitest';
import { buildWindows } from '../../../src/lib/core/extract/windows';
import { longConversation, MAPLE } from './conversation';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

describe('windows over a conversation', () => {
  it('keeps a short conversation in one window, labelled m1..mN in order', () => {
    const windows = buildWindows(MAPLE);
    expect(windows).toHaveLength(1);
    expect(windows[0]?.messages.map((m) => [m.label, m.id])).toEqual([
      ['m1', 'msg-u1'],
      ['m2', 'msg-a1'],
      ['m3', 'msg-u2'],
      ['m4', 'msg-a2'],
    ]);
  });

  it('splits a long conversation at message boundaries within the token budget, losing no message', () => {
    const messages = longConversation(40, 120);
    const windows = buildWindows(messages, { maxTokens: 600 });
    expect(windows.length).toBeGreaterThan(5);
    for (const w of windows) {
      const cited = w.messages.filter((m) => !m.context);
      expect(cited.every((m) => m.part === null)).toBe(true);
      const tokens = cited.reduce((sum, m) => sum + countTokens(m.text) + 6, 0);
      expect(tokens).toBe(w.tokenCount);
      expect(w.tokenCount).toBeLessThanOrEqual(600);
      for (const m of cited) expect(m.text).toBe(messages.find((x) => x.id === m.id)?.text);
    }
    const cited = windows.flatMap((w) => w.messages.filter((m) => !m.context).map((m) => m.id));
    expect(cited).toEqual(messages.map((m) => m.id));
  });

  it('repeats the message before each window as context, except for the first', () => {
    const windows = buildWindows(longConversation(12, 120), { maxTokens: 400 });
    expect(windows[0]?.messages.some((m) => m.context)).toBe(false);
    for (const w of windows.slice(1)) {
      const first = w.messages.filter((m) => !m.context)[0];
      const context = w.messages[0];
      expect(context?.context).toBe(true);
      expect(Number(context?.id.split('-')[1])).toBe(Number(first?.id.split('-')[1]) - 1);
    }
    expect(buildWindows(longConversation(12, 120), { maxTokens: 400, withContext: false })[1]?.messages[0]?.context).toBe(false);
  });

  it('cuts a single message over the budget at sentence boundaries, every part citing the same id', () => {
    const huge = longConversation(1, 2000);
    const windows = buildWindows(huge, { maxTokens: 500 });
    expect(windows.length).toBeGreaterThan(2);
    const parts = windows.map((w) => w.messages.find((m) => !m.context));
    expect(parts.every((m) => m?.id === 'long-0')).toBe(true);
    expect(parts.map((m) => m?.part?.index)).toEqual(windows.map((_, i) => i));
    expect(parts.every((m) => /\.$/u.test(m?.text ?? ''))).toBe(true);
    expect(parts.map((m) => m?.text).join(' ')).toBe(huge[0]?.text);
  });

  it('skips empty messages', () => {
    expect(buildWindows([{ id: 'e', role: 'user', text: '   ', createdAt: null }])).toEqual([]);
  });
});
