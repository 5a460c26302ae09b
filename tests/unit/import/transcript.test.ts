/** Plain and Markdown transcripts, fenced code, and pasted text that is not a chat. */
import { describe, expect, it } from 'vitest';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import { splitTranscript } from '../../../src/lib/core/import/transcript';

const utf8 = (s: string) => new TextEncoder().encode(s);
const turns = (text: string) => splitTranscript(text).turns.map((t) => [t.role, t.text]);

describe('transcript speaker lines', () => {
  it.each([
    ['User: hi\nAssistant: hello', 'plain labels'],
    ['Human: hi\n\nAI: hello', 'Human / AI'],
    ['**User:** hi\n**Assistant:** hello', 'bold with the colon inside'],
    ['**User**: hi\n**Assistant**: hello', 'bold with the colon outside'],
    ['### User\nhi\n### Assistant\nhello', 'headings'],
    ['## Prompt:\nhi\n\n## Response:\nhello', 'prompt/response headings'],
    ['You said:\nhi\nChatGPT said:\nhello', 'the chatgpt.com copy format'],
    ['Me: hi\nClaude 3.5 Sonnet: hello', 'a model name with a version'],
    ['[User]: hi\n[GPT-4o]: hello', 'bracketed names'],
    ['User: hi\r\nAssistant: hello\r\n', 'CRLF line ends'],
  ])('reads %j (%s)', (text) => {
    expect(turns(text)).toEqual([
      ['user', 'hi'],
      ['assistant', 'hello'],
    ]);
  });

  it('never splits inside fenced code, whatever the fence', () => {
    const text = [
      'User: here is my log',
      '```text',
      'User: this line is inside the fence',
      'Assistant: so is this one',
      '```',
      'Assistant: I see.',
      '~~~~',
      '### User',
      '```',
      'User: still fenced: a shorter or different fence does not close ~~~~',
      '~~~~',
      'User: now outside',
    ].join('\n');
    expect(turns(text)).toEqual([
      ['user', 'here is my log\n```text\nUser: this line is inside the fence\nAssistant: so is this one\n```'],
      ['assistant', 'I see.\n~~~~\n### User\n```\nUser: still fenced: a shorter or different fence does not close ~~~~\n~~~~'],
      ['user', 'now outside'],
    ]);
  });

  it('keeps multi-line messages exactly, trimming only blank lines at the ends', () => {
    expect(turns('User:\n\n  first line\n\n  - item\n\n\nAssistant: ok\n')).toEqual([
      ['user', '  first line\n\n  - item'],
      ['assistant', 'ok'],
    ]);
  });

  it('does not take prose labels for speakers', () => {
    expect(turns('Question: why?\nAnswer: because.')).toEqual([]);
    expect(turns('## User guide\nThe user: a person.\n# AI safety overview')).toEqual([]);
  });
});

describe('pasted text through the importer', () => {
  it('imports a Markdown transcript with its heading as title and stable ids', async () => {
    const text = '# Pruning the maple\n\n**User:** When do I prune?\n\n**Assistant:** In late winter.\n\n**User:** Thanks';
    const a = await parseAll(utf8(text), { name: 'paste' });
    const b = await parseAll(utf8(text), { name: 'other name' });
    expect(a.summary).toMatchObject({
      format: 'transcript',
      conversations: 1,
      messages: { visible: 3, otherBranches: 0, hidden: 0 },
      errors: [],
    });
    const c = a.conversations[0]!;
    expect(c.title).toBe('Pruning the maple');
    expect(c.source).toBe('transcript');
    expect(c.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'When do I prune?'],
      ['assistant', 'In late winter.'],
      ['user', 'Thanks'],
    ]);
    expect(c.messages[1]!.parentExternalId).toBe(c.messages[0]!.externalId);
    expect(b.conversations[0]!.externalId).toBe(c.externalId);
    expect(b.conversations[0]!.messages.map((m) => m.externalId)).toEqual(c.messages.map((m) => m.externalId));
  });

  it('keeps text before the first speaker as a hidden preamble', async () => {
    const { conversations, summary } = await parseAll(utf8('Exported from my notes app.\nSecond line.\n\nUser: hi\nAssistant: hello'));
    expect(summary.messages).toEqual({ visible: 2, otherBranches: 0, hidden: 1 });
    expect(conversations[0]!.messages[0]).toMatchObject({
      role: 'system',
      hidden: true,
      text: 'Exported from my notes app.\nSecond line.',
    });
  });

  it('keeps earlier message ids when the transcript grows', async () => {
    const short = await parseAll(utf8('User: a\nAssistant: b'));
    const long = await parseAll(utf8('User: a\nAssistant: b\nUser: c\nAssistant: d'));
    const ids = (f: typeof short) => f.conversations[0]!.messages.map((m) => m.externalId);
    expect(long.conversations[0]!.externalId).toBe(short.conversations[0]!.externalId);
    expect(ids(long).slice(0, 2)).toEqual(ids(short));
  });

  it.each([
    ['an essay', 'Japanese gardens\n\nThe garden uses borrowed scenery (shakkei).\nUser: not really a chat.'],
    ['one speaker only', 'User: a note to self\nUser: another note'],
    ['bracketed prose', '[Draft] plan for the garden\n- prune in winter'],
    ['an FAQ', 'Question: why?\nAnswer: because.'],
  ])('makes %s one resource, not an error', async (_label, text) => {
    const { summary, resources, conversations } = await parseAll(utf8(text));
    expect(summary).toMatchObject({ format: 'text', resources: 1, conversations: 0, errors: [] });
    expect(conversations).toEqual([]);
    expect(resources[0]!.text).toBe(text);
    expect(resources[0]!.title).toBe(text.split('\n')[0]);
    expect(resources[0]!.externalId).toMatch(/^text:[0-9a-f]{16}$/u);
  });
});
