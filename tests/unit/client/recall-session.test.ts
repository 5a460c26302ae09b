import { describe, expect, it } from 'vitest';
import type { RecallRequest, RecallResponse } from '../../../src/lib/core/api/recall-api';
import { RecallSession, type RecallPrefs } from '../../../src/lib/client/recall-session.svelte';

/** An answer carrying only what the session reads: the prompt, no items, and the package text. */
function answer(request: RecallRequest, text: string): RecallResponse {
  return {
    requestId: request.requestId,
    stale: false,
    result: { prompt: request.prompt, items: [] },
    package: { text },
  } as unknown as RecallResponse;
}

const prefs = { load: (): Promise<RecallPrefs> => Promise.reject(new Error('not read')), save: () => Promise.resolve() };
const notes = { setPinned: () => Promise.resolve() };
const refusing = { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) };
const accepting = { writeText: () => Promise.resolve() };

/** A session whose backend answers with the package text the test sets. */
function session() {
  const state = { text: 'the moss package' };
  const s = new RecallSession({ recall: (request) => Promise.resolve(answer(request, state.text)) }, prefs, notes);
  s.prompt = 'moss soil';
  return { s, state };
}

describe('RecallSession: what Copy said', () => {
  it('a rerun that brings back the same package keeps a refusal the person has not read yet', async () => {
    const { s } = session();
    await s.run();
    expect(await s.copyToPrompt(refusing)).toBe(false);
    expect(s.copy.state).toBe('refused');
    await s.run();
    expect(s.copy.state).toBe('refused');
    expect(s.copy.message).toContain('refused to write to the clipboard');
  });

  it('"Copied" stays across a rerun with the same package, and clears when the package changes', async () => {
    const { s, state } = session();
    await s.run();
    expect(await s.copyToPrompt(accepting)).toBe(true);
    await s.run();
    expect(s.copy.state).toBe('copied');
    state.text = 'the moss package, with a new memory';
    await s.run();
    expect(s.copy.state).toBe('idle');
  });
});
