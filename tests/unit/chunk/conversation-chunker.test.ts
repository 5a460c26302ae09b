import { loadTokenCounter } from '../../../src/lib/core/text/token-count';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkConversation, type ChunkMessage } from '../../../src/lib/core/chunk/conversation-chunker';
import type { ChunkDraft, ChunkOptions } from '../../../src/lib/core/chunk/types';
import { referencePath, textArb, wordCount, type GeneratedText } from './arbitraries';

// The app loads the token counter on demand (core/text/token-count.ts); these tests call core directly.
await loadTokenCounter();

const conversation = { id: 'c1', title: 'Garden plans', createdAt: Date.UTC(2023, 4, 8) };

function msg(id: string, ordinal: number, text: string, over: Partial<ChunkMessage> = {}): ChunkMessage {
  return { id, role: ordinal % 2 ? 'assistant' : 'user', text, createdAt: Date.UTC(2023, 4, 8, 13, 56), ordinal, ...over };
}

const optionsArb: fc.Arbitrary<ChunkOptions> = fc.record({
  maxTokens: fc.integer({ min: 8, max: 120 }),
  minTokens: fc.integer({ min: 0, max: 12 }),
  maxBullets: fc.constant(4),
});

const messagesArb = fc
  .array(textArb, { minLength: 1, maxLength: 6 })
  .map((gens) => gens.map((g, i) => ({ gen: g, message: msg(`m${i}`, i, g.text) })));

function spansOf(chunks: readonly ChunkDraft[], id: string) {
  return chunks.flatMap((c) => c.spans.filter((s) => s.sourceId === id)).sort((a, b) => a.start - b.start);
}

describe('chunkConversation', () => {
  it('makes one unit per message with speaker, title and date as context', () => {
    const chunks = chunkConversation(conversation, [
      msg('m0', 0, 'I want a small Japanese garden behind the house.', { speaker: 'Caroline' }),
      msg('m1', 1, 'A dry garden with raked gravel and a few stones would suit a small yard.'),
    ]);
    expect(chunks.map((c) => c.messageIds)).toEqual([['m0'], ['m1']]);
    expect(chunks[0]!.contextText).toBe('Garden plans — 2023-05-08\nCaroline: I want a small Japanese garden behind the house.');
    expect(chunks[1]!.contextText).toContain('Assistant: A dry garden');
    expect(chunks[0]!.text).toBe('I want a small Japanese garden behind the house.');
    expect(chunks[0]!.id).toBe('m0#0');
  });

  it('merges a very short turn with its neighbour in the conversation', () => {
    const chunks = chunkConversation(conversation, [
      msg('m0', 0, 'Which stones should frame the pond on the north side?'),
      msg('m1', 1, 'Use three flat granite stones in an uneven triangle around the pond.'),
      msg('m2', 2, 'Thanks!'),
      msg('m3', 3, 'You are welcome; send a photo when the stones are in place.'),
    ]);
    expect(chunks.map((c) => c.messageIds)).toEqual([['m0'], ['m1', 'm2'], ['m3']]);
    expect(chunks[1]!.contextText).toContain('Assistant: Use three');
    expect(chunks[1]!.contextText).toContain('User: Thanks!');
    // A short first turn has no previous neighbour: it joins the next one.
    const first = chunkConversation(conversation, [msg('a', 0, 'Hi!'), msg('b', 1, 'Hello, how can I help with the garden today?')]);
    expect(first.map((c) => c.messageIds)).toEqual([['a', 'b']]);
  });

  it('splits a long answer on its headings into complete levels with their paths', () => {
    const section = (n: number) => Array.from({ length: n }, (_, i) => `Sentence number ${i} about moss and stones.`).join(' ');
    const text = `Intro paragraph here.\n\n# Plan\n\n## Stones\n${section(6)}\n\n## Water\n${section(5)}\n### Pump\n${section(2)}`;
    const chunks = chunkConversation(conversation, [msg('m0', 1, text)], { maxTokens: 60, minTokens: 0, maxBullets: 4 }, wordCount);
    // "# Plan" has no body of its own, so it opens the Stones piece: the piece then lies in Plan.
    expect(chunks.map((c) => c.headingPath)).toEqual([[], ['Plan'], ['Plan', 'Water']]);
    expect(chunks[1]!.text.startsWith('# Plan\n\n## Stones')).toBe(true);
    expect(chunks[2]!.text).toContain('### Pump');
    expect(chunks[2]!.contextText.split('\n')[1]).toBe('Plan > Water');
  });

  it('never splits a code block, and flags it when it alone exceeds the budget', () => {
    const code = ['```', ...Array.from({ length: 40 }, (_, i) => `line ${i}. more words here`), '```'].join('\n');
    const chunks = chunkConversation(
      conversation,
      [msg('m0', 1, `Here is the script.\n\n${code}\n\nRun it daily.`)],
      { maxTokens: 20, minTokens: 0, maxBullets: 4 },
      wordCount,
    );
    const withCode = chunks.filter((c) => c.text.includes('```'));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]!.text).toContain(code);
    expect(withCode[0]!.flags).toContain('oversized');
  });

  it('skips blank messages', () => {
    expect(chunkConversation(conversation, [msg('m0', 0, '  \n ')])).toEqual([]);
  });

  it('covers every message exactly once, in order, and never splits a sentence', () => {
    fc.assert(
      fc.property(messagesArb, optionsArb, (items, options) => {
        const chunks = chunkConversation(
          conversation,
          items.map((i) => i.message),
          options,
          wordCount,
        );
        for (const { gen, message } of items) {
          const spans = spansOf(chunks, message.id);
          expect(spans[0]!.start).toBe(0);
          expect(spans[spans.length - 1]!.end).toBe(message.text.length);
          spans.slice(1).forEach((s, i) => expect(s.start).toBe(spans[i]!.end));
          for (const atom of gen.atoms) expect(spans.some((s) => s.start <= atom.start && atom.end <= s.end)).toBe(true);
        }
        for (const chunk of chunks) expect(chunk.messageIds).toEqual([...new Set(chunk.spans.map((s) => s.sourceId))]);
        const order = chunks.flatMap((c) => c.spans.map((s) => `${s.sourceId}:${s.start}`));
        const expected = items.flatMap(({ message }) => spansOf(chunks, message.id).map((s) => `${s.sourceId}:${s.start}`));
        expect(order).toEqual(expected);
      }),
    );
  });

  it('labels every single-message chunk with the heading path of the deepest section holding it', () => {
    fc.assert(
      fc.property(messagesArb, optionsArb, (items, options) => {
        const byId = new Map<string, GeneratedText>(items.map((i) => [i.message.id, i.gen]));
        for (const chunk of chunkConversation(
          conversation,
          items.map((i) => i.message),
          options,
          wordCount,
        )) {
          if (chunk.spans.length > 1) {
            expect(chunk.headingPath).toEqual([]);
            continue;
          }
          const span = chunk.spans[0]!;
          const gen = byId.get(span.sourceId)!;
          expect(chunk.headingPath).toEqual(referencePath(gen.atoms, gen.text.length, span.start, span.end));
        }
      }),
    );
  });

  it('keeps every chunk within the budget unless it is one oversized unit', () => {
    fc.assert(
      fc.property(messagesArb, optionsArb, (items, options) => {
        for (const chunk of chunkConversation(
          conversation,
          items.map((i) => i.message),
          options,
          wordCount,
        )) {
          if (!chunk.flags.includes('oversized')) expect(chunk.tokenCount).toBeLessThanOrEqual(options.maxTokens);
        }
      }),
    );
  });

  it('is deterministic and independent of input order', () => {
    fc.assert(
      fc.property(messagesArb, optionsArb, (items, options) => {
        const messages = items.map((i) => i.message);
        const a = chunkConversation(conversation, messages, options, wordCount);
        const b = chunkConversation(conversation, [...messages].reverse(), options, wordCount);
        expect(b).toEqual(a);
      }),
    );
  });

  it('counts tokens with the GPT tokenizer by default', () => {
    const [chunk] = chunkConversation(conversation, [msg('m0', 0, 'Hello world, this is a test.')]);
    expect(chunk!.tokenCount).toBe(8);
  });
});
