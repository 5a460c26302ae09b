/**
 * Variations the samples do not show, on hand-written fixtures: Claude content blocks and
 * branches, Grok wrapped responses, AI Studio thoughts and media, Open WebUI inline details,
 * older DeepSeek messages, wrappers, JSON Lines, and unknown JSON described.
 */
import { describe, expect, it } from 'vitest';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import { claudeConversation, utf8 } from '../../factories/import-fixtures';

const parseJson = (value: unknown, name = 'f.json') => parseAll(utf8(JSON.stringify(value)), { name });

describe('Claude', () => {
  it('reads empty text from content blocks, hides thinking, keeps tools, attachments and files', async () => {
    const conv = claudeConversation([
      {
        uuid: 'm1',
        sender: 'human',
        text: 'Please read this',
        created_at: '2024-05-01T10:00:00Z',
        attachments: [{ file_name: 'notes.txt', extracted_content: 'maple notes' }],
        files: [{ file_name: 'photo.jpg' }],
      },
      {
        uuid: 'm2',
        sender: 'assistant',
        text: '',
        content: [
          { type: 'thinking', thinking: 'consider the notes' },
          { type: 'text', text: 'Here is a summary.' },
          { type: 'tool_use', name: 'artifacts', input: { title: 'Plan', content: '# Plan' } },
          { type: 'tool_result', name: 'web_search', content: [{ type: 'text', text: 'result one' }], is_error: false },
          { type: 'sparkle', text: 'new block' },
        ],
      },
    ]);
    const { conversations, summary } = await parseJson([conv]);
    expect(summary).toMatchObject({
      format: 'claude',
      messages: { visible: 2, otherBranches: 0, hidden: 1 },
      unknownContentTypes: [{ type: 'sparkle', count: 1 }],
    });
    expect(conversations[0]!.messages.map((m) => [m.externalId, m.role, m.hidden, m.text])).toEqual([
      ['m1', 'user', false, 'Please read this\n\n[attachment: notes.txt]\nmaple notes\n\n[file: photo.jpg]'],
      ['m2:thinking', 'assistant', true, 'consider the notes'],
      [
        'm2',
        'assistant',
        false,
        'Here is a summary.\n\n[tool call: artifacts "Plan"]\n# Plan\n\n[tool result: web_search]\nresult one\n\nnew block',
      ],
    ]);
  });

  it('follows parent_message_uuid branches to the current leaf', async () => {
    const conv = claudeConversation(
      [
        { uuid: 'q', sender: 'human', text: 'q', parent_message_uuid: '00000000-0000-4000-8000-000000000000' },
        { uuid: 'a-old', sender: 'assistant', text: 'first try', parent_message_uuid: 'q' },
        { uuid: 'a-new', sender: 'assistant', text: 'retry', parent_message_uuid: 'q' },
      ],
      { current_leaf_message_uuid: 'a-new' },
    );
    const { conversations, summary } = await parseJson(conv);
    expect(summary.messages).toEqual({ visible: 2, otherBranches: 1, hidden: 0 });
    expect(conversations[0]!.messages.map((m) => [m.externalId, m.onVisiblePath])).toEqual([
      ['q', true],
      ['a-new', true],
      ['a-old', false],
    ]);
  });

  it('gives messages without uuid position-and-content ids, and renames repeated uuids', async () => {
    const conv = claudeConversation([
      { sender: 'human', text: 'hi' },
      { uuid: 'x', sender: 'assistant', text: 'a' },
      { uuid: 'x', sender: 'human', text: 'b' },
    ]);
    const { conversations } = await parseJson(conv);
    expect(conversations[0]!.messages.map((m) => m.externalId)).toEqual([expect.stringMatching(/^m0:[0-9a-f]{16}$/u), 'x', 'x#2']);
    expect(conversations[0]!.messages[2]!.parentExternalId).toBe('x');
  });

  it('skips a conversation with no messages, with its name', async () => {
    const { summary } = await parseJson([
      claudeConversation([]),
      claudeConversation([{ uuid: 'a', sender: 'human', text: 'x' }], { uuid: 'c2' }),
    ]);
    expect(summary.conversations).toBe(1);
    expect(summary.skipped).toEqual([{ what: 'conversation "Claude fixture"', reason: 'it holds no messages' }]);
  });
});

describe('other sources', () => {
  it('reads Grok wrapped responses with MongoDB dates and parent ids', async () => {
    const grok = {
      conversations: [
        {
          conversation: { id: 'g1', title: 'Grok', create_time: { $date: { $numberLong: '1722506400000' } } },
          responses: [
            { response: { _id: 'r1', sender: 'human', message: 'hi', create_time: { $date: '2024-08-01T10:00:00Z' } } },
            { response: { _id: 'r2', sender: 'ASSISTANT', message: 'old', parent_response_id: 'r1', thinking_trace: 'hmm' } },
            { response: { _id: 'r3', sender: 'assistant', message: 'new', parent_response_id: 'r1', file_attachments: ['f1'] } },
          ],
        },
      ],
    };
    const { conversations, summary } = await parseJson(grok);
    expect(summary).toMatchObject({ format: 'grok', messages: { visible: 2, otherBranches: 1, hidden: 1 } });
    const c = conversations[0]!;
    expect(c.createdAt).toBe(1722506400000);
    expect(c.messages.map((m) => [m.externalId, m.onVisiblePath, m.text])).toEqual([
      ['r1', true, 'hi'],
      ['r3', true, 'new\n[file: f1]'],
      ['r2:thinking', false, 'hmm'],
      ['r2', false, 'old'],
    ]);
    expect(c.messages[0]!.createdAt).toBe(Date.UTC(2024, 7, 1, 10));
  });

  it('reads AI Studio system instructions, thoughts, parts and media', async () => {
    const prompt = {
      runSettings: { model: 'models/gemini-2.5-pro' },
      systemInstruction: { text: 'Be brief.' },
      chunkedPrompt: {
        chunks: [
          { driveImage: { id: 'drive-1' }, role: 'user' },
          { text: 'What is in the image?', role: 'user' },
          { text: 'Let me look closely.', role: 'model', isThought: true },
          { role: 'model', parts: [{ text: 'thinking in parts', thought: true }, { text: 'A maple ' }, { text: 'tree.' }] },
        ],
        pendingInputs: [{ text: 'unsent', role: 'user' }],
      },
    };
    const { conversations, summary } = await parseJson(prompt);
    expect(summary.messages).toEqual({ visible: 3, otherBranches: 0, hidden: 3 });
    expect(conversations[0]!.messages.map((m) => [m.role, m.hidden, m.text])).toEqual([
      ['system', true, 'Be brief.'],
      ['user', false, '[image: drive-1]'],
      ['user', false, 'What is in the image?'],
      ['assistant', true, 'Let me look closely.'],
      ['assistant', true, 'thinking in parts'],
      ['assistant', false, 'A maple tree.'],
    ]);
    expect(conversations[0]!.notes.join(' ')).toMatch(/unsent draft/u);
  });

  it('reads Open WebUI reasoning and tool calls inlined as <details> when there is no output list', async () => {
    const chat = {
      id: 'w1',
      title: 'Inline',
      chat: {
        history: {
          currentId: 'b',
          messages: {
            a: {
              id: 'a',
              parentId: null,
              childrenIds: ['b'],
              role: 'user',
              content: 'q',
              timestamp: 1700000000,
              files: [{ name: 'doc.pdf' }],
            },
            b: {
              id: 'b',
              parentId: 'a',
              childrenIds: [],
              role: 'assistant',
              content:
                '<details type="reasoning" done="true"><summary>Thought</summary>&gt; step &amp; step</details><details type="tool_calls"><summary>Tool</summary>"42"</details>The answer is 42.',
              timestamp: 1700000005,
            },
          },
        },
      },
    };
    const { conversations } = await parseJson([chat]);
    expect(conversations[0]!.messages.map((m) => [m.externalId, m.hidden, m.text])).toEqual([
      ['a', false, 'q\n[file: doc.pdf]'],
      ['b:reasoning', true, '> step & step'],
      ['b', false, '[tool call]\n"42"\n\nThe answer is 42.'],
    ]);
  });

  it('reads an Open WebUI chat that only has the flat messages list', async () => {
    const chat = {
      id: 'w2',
      title: 'Flat',
      chat: {
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      },
    };
    const { summary, conversations } = await parseJson([chat]);
    expect(summary).toMatchObject({ format: 'openwebui', messages: { visible: 2 } });
    expect(conversations[0]!.messages[1]!.parentExternalId).toBe(conversations[0]!.messages[0]!.externalId);
  });

  it('reads older DeepSeek messages with content and reasoning_content', async () => {
    const ds = [
      {
        id: 'd1',
        title: 'Old',
        inserted_at: '2025-01-01T00:00:00Z',
        mapping: {
          root: { id: 'root', parent: null, children: ['1'] },
          1: {
            id: '1',
            parent: 'root',
            children: ['2'],
            message: { role: 'USER', content: 'q', inserted_at: '2025-01-01T00:00:01Z', fragments: undefined },
          },
          2: {
            id: '2',
            parent: '1',
            children: [],
            message: {
              fragments: [
                { type: 'SEARCH', content: [{ url: 'u' }] },
                { type: 'RESPONSE', content: 'a' },
                { type: 'TIP', content: 'tip' },
              ],
            },
          },
        },
        current_node: '2',
      },
    ];
    const { conversations, summary } = await parseJson(ds);
    expect(summary.format).toBe('deepseek');
    expect(summary.unknownContentTypes).toEqual([{ type: 'TIP', count: 1 }]);
    expect(conversations[0]!.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'q'],
      ['assistant', '[web search: [1 result(s)]]\n\na\n\ntip'],
    ]);
  });

  it('reads JSON Lines (one conversation per line)', async () => {
    const line = (id: string) => JSON.stringify({ uuid: id, name: id, chat_messages: [{ uuid: `${id}-m`, sender: 'human', text: id }] });
    const { summary } = await parseAll(utf8(`${line('a')}\n${line('b')}\n`));
    expect(summary).toMatchObject({ format: 'claude', conversations: 2, errors: [] });
  });

  it('finds the export after a corrupt first entry, but not past the detection window', async () => {
    const good = claudeConversation([{ uuid: 'a', sender: 'human', text: 'x' }]);
    expect((await parseJson([{ broken: true }, good])).summary).toMatchObject({ format: 'claude', conversations: 1 });
    const { summary } = await parseJson([...Array.from({ length: 40 }, () => ({ broken: true })), good]);
    expect(summary.errors[0]).toMatchObject({ code: 'import/unknown-format' });
    expect(summary.errors[0]!.message).toMatch(
      /first 32 items match no export we know; a JSON list of 32 item\(s\) \(object\); the first object has keys "broken"/u,
    );
  });

  it.each([
    [{ version: 2, settings: { theme: 'dark' } }, /a JSON object with keys "version", "settings"/u],
    [[1, 2, 3], /a JSON list of 3 item\(s\) \(number\)/u],
    ['just a JSON string', null],
    [[{ foo: 1 }, { foo: 2 }], /a JSON list of 2 item\(s\) \(object\); the first object has keys "foo"/u],
    [[], /empty list/u],
  ])('describes unknown JSON %j', async (value, pattern) => {
    const { summary, resources } = await parseJson(value);
    if (pattern === null) {
      // A bare JSON string reads as pasted text.
      expect(resources).toHaveLength(1);
      return;
    }
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]!.message).toMatch(pattern);
  });
});
