import { describe, expect, it } from 'vitest';
import { deriveIntent, deriveIntentDeterministic } from '../../../src/lib/core/recall/intent';
import { scriptedLlm } from '../../factories/scripted-llm';

describe('intent', () => {
  const prompt = 'How does negative space shape distance in a Japanese garden?';

  it('uses an intent the person gave (edited) as is', async () => {
    const llm = scriptedLlm([]);
    const intent = await deriveIntent(prompt, { given: '  Landscape design: ma in Japanese gardens ', llm });
    expect(intent).toEqual({ text: 'Landscape design: ma in Japanese gardens', source: 'given', fallbackReason: null });
    expect(llm.calls).toHaveLength(0);
  });

  it('derives a subject line without a model', async () => {
    expect(deriveIntentDeterministic(prompt)).toBe(
      'Memories about negative space shape distance; japanese garden, as asked: "negative space shape distance in a Japanese garden"',
    );
    expect((await deriveIntent(prompt)).source).toBe('deterministic');
  });

  it('asks the model for the subject domain and falls back when it fails', async () => {
    const llm = scriptedLlm([JSON.stringify({ intent: 'Landscape design: how negative space shapes depth in Japanese gardens' }), '{}']);
    const first = await deriveIntent(prompt, { llm });
    expect(first).toMatchObject({ source: 'llm', text: 'Landscape design: how negative space shapes depth in Japanese gardens' });
    expect(llm.calls[0]!.options.temperature).toBe(0);
    const second = await deriveIntent(prompt, { llm });
    expect(second.source).toBe('deterministic');
    expect(second.fallbackReason).toContain('invalid-output');
  });
});
