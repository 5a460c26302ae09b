/** The evaluations' prompt files (services/eval/prompt-file.ts): a file of the wrong shape says where. */
import { describe, expect, it } from 'vitest';
import { parseGlobalPrompts } from '../../../src/lib/services/eval/global-view';
import { parseQuestionPrompts } from '../../../src/lib/services/eval/question-eval';

describe('prompt files', () => {
  it('read the prompts of the right shape, other keys ignored', () => {
    const got = parseGlobalPrompts({ about: 'x', prompts: [{ conversation: 'c', kind: 'overview', prompt: ' Recap ' }] });
    expect(got.ok && got.value).toEqual([{ conversation: 'c', kind: 'overview', prompt: 'Recap' }]);
  });

  it('say which shape a file should have and where it does not', () => {
    const bad = parseQuestionPrompts({ prompts: [{ conversation: 'c', turn: 't1', kind: 'decision', prompt: 'Which?' }] });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.code).toBe('input/invalid');
    expect(bad.error.message).toContain('{ "conversation", "turn", "kind", "prompt", "answer" }');
    expect(bad.error.message).toContain('prompts.0.answer');
    expect(parseGlobalPrompts({ prompts: [] }).ok).toBe(false);
  });
});
