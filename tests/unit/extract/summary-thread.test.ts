import { describe, expect, it } from 'vitest';
import { extractConversation } from '../../../src/lib/core/extract/driver';
import { extractiveSummary, summarizeSession } from '../../../src/lib/core/extract/summary';
import { buildThreadMap, groupSessionsBySubject, type SessionUnits } from '../../../src/lib/core/extract/thread-map';
import type { CandidateUnit, ExtractionMessage } from '../../../src/lib/core/extract/units';
import { ScriptedLlm } from '../../factories/scripted-llm';
import { longConversation, MAPLE } from './conversation';

const words = (text: string): number => text.split(/\s+/u).filter(Boolean).length;

describe('session summary', () => {
  it('extractive fallback: 200-400 words from a long session, sentences in their original order', () => {
    const session = longConversation(20, 120);
    const text = extractiveSummary(session);
    expect(words(text)).toBeGreaterThanOrEqual(200);
    expect(words(text)).toBeLessThanOrEqual(400);
    const all = session.map((m) => m.text).join(' ');
    const sentences = text.split(/(?<=\.)\s+/u);
    const positions = sentences.map((s) => all.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('a short session is never padded', async () => {
    const summary = await summarizeSession(MAPLE);
    expect(summary.method).toBe('extractive');
    expect(summary.fallbackReason?.code).toBe('llm/unavailable');
    expect(summary.words).toBeLessThanOrEqual(MAPLE.reduce((n, m) => n + words(m.text), 0));
  });

  it('uses the model answer when it is within bounds', async () => {
    const answer = Array.from({ length: 250 }, (_, i) => `w${i}`).join(' ');
    const llm = new ScriptedLlm([{ outputJson: { summary: answer } }]);
    const summary = await summarizeSession(longConversation(20, 120), { llm });
    expect(summary).toMatchObject({ method: 'llm', words: 250, llmId: 'fake:scripted', fallbackReason: null });
    expect(llm.calls[0]?.options.temperature).toBe(0);
  });

  it('falls back to extractive when the model answer is too short, malformed or fails', async () => {
    const session = longConversation(20, 120);
    for (const step of [
      { outputJson: { summary: 'Too short.' } },
      { output: '{"summary": ' },
      { error: { code: 'llm/failed' as const, message: 'x' } },
    ]) {
      const summary = await summarizeSession(session, { llm: new ScriptedLlm([step]) });
      expect(summary.method).toBe('extractive');
      expect(summary.fallbackReason).not.toBeNull();
    }
  });
});

const unit = (category: CandidateUnit['category'], text: string, id: string): CandidateUnit => ({
  kind: category === 'Decisions' ? 'decision' : category === 'Open Questions' ? 'question' : 'claim',
  category,
  text,
  sourceMessageIds: [id],
  repairs: [],
});

describe('thread map', () => {
  const day = 86_400_000;
  const sessions: SessionUnits[] = [
    {
      sessionId: 's1',
      title: 'Vault storage',
      date: 1 * day,
      units: [
        unit('Ideas', 'Store vault notes in SQLite through WASM.', 'a'),
        unit('Open Questions', 'How large can the vault storage grow?', 'b'),
        unit('Open Questions', 'Should vault notes sync across devices?', 'c'),
      ],
    },
    {
      sessionId: 's2',
      title: 'Vault storage again',
      date: 5 * day,
      units: [
        unit('Decisions', 'Store vault notes in IndexedDB through Dexie.', 'd'),
        unit('Facts', 'The vault storage can grow to about ten gigabytes.', 'e'),
      ],
    },
    { sessionId: 's3', title: 'Baking bread', date: 2 * day, units: [unit('Facts', 'Sourdough needs a lively starter.', 'f')] },
  ];

  it('groups sessions on the same subject', () => {
    const groups = groupSessionsBySubject(sessions);
    expect(groups.map((g) => g.map((s) => s.sessionId).sort())).toEqual([['s1', 's2']]);
  });

  it('traces proposed, changed, decided and left-open, with dates', () => {
    const map = buildThreadMap(sessions.slice(0, 2));
    expect(map.sessionIds).toEqual(['s1', 's2']);
    expect(map.subject).toContain('vault');
    const stages = map.arc.map((e) => [e.stage, e.sessionId, e.date]);
    expect(stages).toContainEqual(['proposed', 's1', day]);
    expect(stages).toContainEqual(['changed', 's2', 5 * day]);
    expect(stages).toContainEqual(['decided', 's2', 5 * day]);
    const open = map.arc.filter((e) => e.stage === 'left-open').map((e) => e.text);
    expect(open).toEqual(['Should vault notes sync across devices?']);
    expect(map.arc.find((e) => e.stage === 'changed')?.replaces?.text).toBe('Store vault notes in SQLite through WASM.');
  });

  it('works on rule-based output end to end', async () => {
    const a: ExtractionMessage[] = [{ id: 'x1', role: 'user', text: "I've decided to use SQLite for the vault storage.", createdAt: day }];
    const b: ExtractionMessage[] = [
      { id: 'y1', role: 'user', text: "I've decided to use Dexie for the vault storage.", createdAt: 3 * day },
    ];
    const map = buildThreadMap([
      { sessionId: 'a', title: '', date: day, units: (await extractConversation(a)).units },
      { sessionId: 'b', title: '', date: 3 * day, units: (await extractConversation(b)).units },
    ]);
    expect(map.arc.map((e) => e.stage)).toEqual(['decided', 'changed', 'decided']);
  });
});
