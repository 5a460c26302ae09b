/** ChatGPT content types, hidden nodes, branches and broken trees, on hand-written fixtures. */
import { describe, expect, it } from 'vitest';
import { parseChatgptConversation } from '../../../src/lib/core/import/chatgpt';
import type { ElementResult } from '../../../src/lib/core/import/context';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import type { ParsedConversation } from '../../../src/lib/core/import/parsed';
import { chatgptConversation, text, utf8, type NodeSpec } from '../../factories/import-fixtures';

function parse(conv: unknown): { conversation: ParsedConversation; unknown: string[] } {
  const unknown: string[] = [];
  const result: ElementResult = parseChatgptConversation(conv, { index: 0, unknownType: (t) => unknown.push(t) });
  if (!('conversation' in result)) throw new Error(`skipped: ${result.skipped.reason}`);
  return { conversation: result.conversation, unknown };
}

describe('ChatGPT content types', () => {
  const chain = (contents: [string, string, Record<string, unknown>][]): NodeSpec[] => {
    const nodes: NodeSpec[] = [{ id: 'root', parent: null, empty: true }];
    contents.forEach(([id, role, content], i) => nodes.push({ id, parent: i === 0 ? 'root' : contents[i - 1]![0], role, content }));
    return nodes;
  };

  it('keeps text and turns every non-text part into a short typed placeholder', () => {
    const nodes = chain([
      [
        'mm',
        'user',
        {
          content_type: 'multimodal_text',
          parts: [{ content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-abc', width: 10 }, null, 'What is this?'],
        },
      ],
      ['code', 'assistant', { content_type: 'code', language: 'python', text: 'print(1)' }],
      ['exec', 'tool', { content_type: 'execution_output', text: '1' }],
      ['quote', 'tool', { content_type: 'tether_quote', url: 'https://ex.com', title: 'Ex', text: 'quoted words' }],
      ['browse', 'tool', { content_type: 'tether_browsing_display', result: '', summary: '' }],
      [
        'dalle',
        'tool',
        {
          content_type: 'multimodal_text',
          parts: [
            { content_type: 'image_asset_pointer', asset_pointer: 'sediment://file_123', metadata: { dalle: { prompt: 'a red maple' } } },
          ],
        },
      ],
      [
        'voice',
        'user',
        {
          content_type: 'multimodal_text',
          parts: [
            { content_type: 'audio_transcription', text: 'spoken words' },
            { content_type: 'audio_asset_pointer', asset_pointer: 'sediment://file_a' },
          ],
        },
      ],
      ['err', 'assistant', { content_type: 'system_error', name: 'ToolError', text: 'timed out' }],
      ['shot', 'tool', { content_type: 'computer_output', screenshot: {} }],
      ['page', 'tool', { content_type: 'sonic_webpage', title: 'Maples', url: 'https://m.org', text: 'page text' }],
      ['end', 'assistant', text('done')],
    ]);
    const { conversation: c, unknown } = parse(chatgptConversation(nodes, 'end'));
    expect(unknown).toEqual([]);
    expect(c.messages.map((m) => [m.externalId, m.role, m.text])).toEqual([
      ['mm', 'user', '[image: file-abc]\nWhat is this?'],
      ['code', 'assistant', '```python\nprint(1)\n```'],
      ['exec', 'tool', '1'],
      ['quote', 'tool', '[quote: Ex — https://ex.com]\nquoted words'],
      ['browse', 'tool', '[browsing results]'],
      ['dalle', 'tool', '[image: file_123, prompt: "a red maple"]'],
      ['voice', 'user', 'spoken words\n[audio: file_a]'],
      ['err', 'assistant', '[error: ToolError] timed out'],
      ['shot', 'tool', '[screenshot]'],
      ['page', 'tool', '[web page: Maples — https://m.org]\npage text'],
      ['end', 'assistant', 'done'],
    ]);
    expect(c.messages.every((m) => m.onVisiblePath && !m.hidden)).toBe(true);
  });

  it('keeps reasoning and context nodes hidden, with their text', () => {
    const nodes = chain([
      ['sys', 'system', text('')],
      ['ctx', 'user', { content_type: 'user_editable_context', user_profile: 'p', user_instructions: 'i' }],
      ['mem', 'assistant', { content_type: 'model_editable_context', model_set_context: '1. likes maples' }],
      ['q', 'user', text('question')],
      [
        'think',
        'assistant',
        {
          content_type: 'thoughts',
          thoughts: [
            { summary: 'Plan', content: 'step one' },
            { summary: 'More', content: 'step two' },
          ],
        },
      ],
      ['recap', 'assistant', { content_type: 'reasoning_recap', content: 'Thought for 4s' }],
      ['flagged', 'assistant', { ...text('invisible'), extra: 1 }],
      ['a', 'assistant', text('answer')],
    ]);
    nodes.find((n) => n.id === 'flagged')!.metadata = { is_visually_hidden_from_conversation: true };
    const { conversation: c } = parse(chatgptConversation(nodes, 'a'));
    expect(c.messages.filter((m) => m.hidden).map((m) => [m.externalId, m.contentType, m.text])).toEqual([
      ['sys', 'text', ''],
      ['ctx', 'user_editable_context', 'User profile:\np\n\nUser instructions:\ni'],
      ['mem', 'model_editable_context', '1. likes maples'],
      ['think', 'thoughts', 'Plan\nstep one\n\nMore\nstep two'],
      ['recap', 'reasoning_recap', 'Thought for 4s'],
      ['flagged', 'text', 'invisible'],
    ]);
    expect(c.messages.filter((m) => !m.hidden).map((m) => m.externalId)).toEqual(['q', 'a']);
  });

  it('keeps an unknown content type and unknown part types, and reports them', () => {
    const nodes = chain([
      ['new', 'assistant', { content_type: 'hologram', text: 'future text' }],
      ['newer', 'assistant', { content_type: 'hologram_v2' }],
      ['parts', 'user', { content_type: 'multimodal_text', parts: [{ content_type: 'smell_pointer', asset_pointer: 'x' }, 'words'] }],
      ['none', 'assistant', {}],
    ]);
    const { conversation: c, unknown } = parse(chatgptConversation(nodes, 'none'));
    expect(c.messages.map((m) => m.text)).toEqual(['future text', '[hologram_v2]', '[smell_pointer]\nwords', '[missing]']);
    expect(unknown).toEqual(['hologram', 'hologram_v2', 'part:smell_pointer', 'missing']);
  });

  it('reports unknown content types in the file summary', async () => {
    const conv = chatgptConversation(chain([['new', 'assistant', { content_type: 'hologram', text: 'x' }]]), 'new');
    const { summary } = await parseAll(utf8(JSON.stringify([conv, conv])));
    expect(summary.unknownContentTypes).toEqual([{ type: 'hologram', count: 1 }]);
    expect(summary.skipped).toEqual([expect.objectContaining({ reason: expect.stringMatching(/repeats a conversation/u) as unknown })]);
  });
});

describe('ChatGPT trees', () => {
  // root - u1 - a1 - u2a - a2a (current)
  //               \- u2b - a2b      (an edit of the second question)
  //          \- a1b                 (a regeneration of the first answer)
  const tree: NodeSpec[] = [
    { id: 'root', parent: null, empty: true },
    { id: 'u1', parent: 'root' },
    { id: 'a1', parent: 'u1', role: 'assistant' },
    { id: 'a1b', parent: 'u1', role: 'assistant' },
    { id: 'u2a', parent: 'a1' },
    { id: 'u2b', parent: 'a1' },
    { id: 'a2a', parent: 'u2a', role: 'assistant' },
    { id: 'a2b', parent: 'u2b', role: 'assistant' },
  ];

  it('follows current_node for the visible thread and keeps the branches after it', () => {
    const { conversation: c } = parse(chatgptConversation(tree, 'a2a'));
    expect(c.messages.map((m) => [m.externalId, m.onVisiblePath, m.parentExternalId])).toEqual([
      ['u1', true, null],
      ['a1', true, 'u1'],
      ['u2a', true, 'a1'],
      ['a2a', true, 'u2a'],
      // Depth-first, children in the export's order: a1's other child before u1's other child.
      ['u2b', false, 'a1'],
      ['a2b', false, 'u2b'],
      ['a1b', false, 'u1'],
    ]);
    expect(c.notes).toEqual([]);
  });

  it('switches the visible thread when current_node names the other branch', () => {
    const { conversation: c } = parse(chatgptConversation(tree, 'a2b'));
    expect(c.messages.filter((m) => m.onVisiblePath).map((m) => m.externalId)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
  });

  it('takes the newest branch and says so when current_node is missing or unknown', () => {
    for (const current of [null, 'gone']) {
      const { conversation: c } = parse(chatgptConversation(tree, current));
      expect(c.messages.filter((m) => m.onVisiblePath).map((m) => m.externalId)).toEqual(['u1', 'a1b']);
      expect(c.notes.join(' ')).toMatch(/newest branch was taken/u);
      expect(c.messages).toHaveLength(7);
    }
  });

  it('survives cycles, orphans and children lists that disagree with parents', () => {
    const broken = chatgptConversation(
      [
        { id: 'u1', parent: null },
        { id: 'a1', parent: 'u1', role: 'assistant' },
        { id: 'x', parent: 'y' },
        { id: 'y', parent: 'x' },
        { id: 'orphan', parent: 'missing' },
      ],
      'a1',
    );
    (broken.mapping.u1 as { children: string[] }).children.push('nope', 'x');
    const { conversation: c } = parse(broken);
    expect(c.messages.map((m) => m.externalId).sort()).toEqual(['a1', 'orphan', 'u1', 'x', 'y']);
    expect(c.messages.filter((m) => m.onVisiblePath).map((m) => m.externalId)).toEqual(['u1', 'a1']);
    expect(c.notes.join(' ')).toMatch(/cycle/u);
    expect(c.notes.join(' ')).toMatch(/parent that is not in the export/u);
    for (const m of c.messages) if (m.parentExternalId) expect(c.messages.some((p) => p.externalId === m.parentExternalId)).toBe(true);
  });

  it('skips, with a reason, conversations that are not objects, lack mapping or hold no messages', () => {
    const ctx = { index: 4, unknownType: () => {} };
    expect(parseChatgptConversation(42, ctx)).toEqual({ skipped: { what: 'item #5', reason: expect.any(String) as unknown } });
    expect(parseChatgptConversation({ title: 'T' }, ctx)).toMatchObject({ skipped: { what: 'conversation "T"' } });
    expect(parseChatgptConversation({ mapping: { r: { id: 'r', parent: null, children: [], message: null } } }, ctx)).toMatchObject({
      skipped: { what: 'conversation #5', reason: 'its mapping holds no messages' },
    });
  });

  it('derives a stable id for a conversation without one', () => {
    const conv = chatgptConversation(tree, 'a2a', { id: undefined });
    const a = parse(conv).conversation.externalId;
    expect(a).toMatch(/^chatgpt:[0-9a-f]{16}$/u);
    expect(parse(structuredClone(conv)).conversation.externalId).toBe(a);
  });

  it('maps unknown author roles to tool and notes them', () => {
    const { conversation: c } = parse(chatgptConversation([{ id: 'x', parent: null, role: 'critic' }], 'x'));
    expect(c.messages[0]!.role).toBe('tool');
    expect(c.notes.join(' ')).toMatch(/unknown author role "critic"/u);
  });
});
