import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractJsonText, parseJsonAnswer } from '../../../src/lib/core/llm-json';

describe('extractJsonText', () => {
  it('accepts bare JSON, a fenced block and JSON inside prose', () => {
    expect(extractJsonText(' {"a":1} ')).toEqual({ ok: true, text: '{"a":1}' });
    expect(extractJsonText('```json\n{"a":1}\n```')).toEqual({ ok: true, text: '{"a":1}' });
    expect(extractJsonText('Sure! {"a":1} Hope it helps.')).toEqual({ ok: true, text: '{"a":1}' });
  });

  it('refuses text that holds no valid JSON', () => {
    const result = extractJsonText('{"a": 1');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('llm/invalid-output');
  });
});

describe('parseJsonAnswer', () => {
  const verdict = z.object({ keep: z.array(z.number()) });

  it('reads the answer the way the model adapters do (bare, fenced or in prose), then checks the schema', () => {
    for (const answer of ['{"keep":[1,2]}', '```json\n{"keep":[1,2]}\n```', 'Here you go: {"keep":[1,2]}']) {
      expect(parseJsonAnswer(answer, verdict)).toEqual({ ok: true, value: { keep: [1, 2] } });
    }
  });

  it('names what is wrong: not JSON, or the path that breaks the schema', () => {
    expect(parseJsonAnswer('I cannot answer that.', verdict)).toEqual({ ok: false, message: 'the answer is not JSON' });
    const wrong = parseJsonAnswer('{"keep":["one"]}', verdict);
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.message).toMatch(/^the answer does not match the schema \(keep\.0: /u);
  });
});
