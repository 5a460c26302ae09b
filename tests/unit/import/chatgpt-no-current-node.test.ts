/**
 * ChatGPT-format files whose exporter omits `current_node`: the visible thread is the branch that
 * ends in the latest message a person could see. The first fixture has the shape of Basic
 * Memory's "hidden" sample (tests/cli/test_import_chatgpt.py in basicmachines-co/basic-memory):
 * a root whose children are a visible user message and a hidden system message, with equal
 * timestamps, and no `current_node`. Written here by hand from that shape.
 */
import { describe, expect, it } from 'vitest';
import { parseChatgptConversation } from '../../../src/lib/core/import/chatgpt';
import { parseAll } from '../../../src/lib/core/import/parse-stream';
import type { ParsedConversation } from '../../../src/lib/core/import/parsed';
import { chatgptConversation, text, utf8, type NodeSpec } from '../../factories/import-fixtures';

function parse(conv: unknown): ParsedConversation {
  const result = parseChatgptConversation(conv, { index: 0, unknownType: () => {} });
  if (!('conversation' in result)) throw new Error(`skipped: ${result.skipped.reason}`);
  return result.conversation;
}

const T = 1_736_616_594.24054;

/** Root with a visible user message and a hidden system message as siblings; no current_node. */
function hiddenSample(): Record<string, unknown> {
  const message = (id: string, role: string, words: string, metadata: Record<string, unknown>) => ({
    id,
    author: { role, name: null, metadata: {} },
    create_time: T,
    content: { content_type: 'text', parts: [words] },
    status: 'finished_successfully',
    metadata,
  });
  return {
    title: 'Hidden Test',
    create_time: T,
    update_time: 1_736_616_603.164995,
    mapping: {
      root: { id: 'root', message: null, parent: null, children: ['visible', 'hidden'] },
      visible: { id: 'visible', message: message('visible', 'user', 'Visible message', {}), parent: 'root', children: [] },
      hidden: {
        id: 'hidden',
        message: message('hidden', 'system', 'Hidden message', { is_visually_hidden_from_conversation: true }),
        parent: 'root',
        children: [],
      },
    },
  };
}

describe('ChatGPT without current_node', () => {
  it('stores the visible user message of the "hidden" sample on the visible thread, not on another branch', async () => {
    const c = parse(hiddenSample());
    expect(c.messages.filter((m) => m.onVisiblePath && !m.hidden).map((m) => [m.externalId, m.role, m.text])).toEqual([
      ['visible', 'user', 'Visible message'],
    ]);
    expect(c.messages.find((m) => m.externalId === 'hidden')).toMatchObject({ hidden: true, onVisiblePath: false });
    expect(c.notes.join(' ')).toMatch(/names no current node/u);
    const { summary } = await parseAll(utf8(JSON.stringify([hiddenSample()])));
    expect(summary.messages).toEqual({ visible: 1, otherBranches: 0, hidden: 1 });
  });

  it('ends the visible thread in the latest visible message, whichever branch holds it', () => {
    const nodes: NodeSpec[] = [
      { id: 'root', parent: null, empty: true },
      { id: 'u1', parent: 'root', time: 100 },
      { id: 'a1', parent: 'u1', role: 'assistant', time: 110 },
      // An edit of the first question, answered later: the newer branch is listed first here.
      { id: 'a1-new', parent: 'u1', role: 'assistant', time: 300 },
      { id: 'u2', parent: 'a1', time: 120 },
      // A hidden node later than everything must not pull the thread to itself.
      { id: 'sys', parent: 'u2', role: 'system', time: 900, content: text('instructions') },
    ];
    // Put the newer answer first among u1's children so the "last child" walk would miss it.
    const conv = chatgptConversation(nodes, null);
    (conv.mapping.u1 as { children: string[] }).children = ['a1-new', 'a1'];
    const c = parse(conv);
    expect(c.messages.filter((m) => m.onVisiblePath).map((m) => m.externalId)).toEqual(['u1', 'a1-new']);
    expect(
      c.messages
        .filter((m) => !m.onVisiblePath)
        .map((m) => m.externalId)
        .sort(),
    ).toEqual(['a1', 'sys', 'u2']);
  });

  it('prefers a timed visible message over untimed ones, and the newest branch on a tie', () => {
    const tie: NodeSpec[] = [
      { id: 'u1', parent: null, time: 50 },
      { id: 'a-old', parent: 'u1', role: 'assistant', time: 60 },
      { id: 'a-new', parent: 'u1', role: 'assistant', time: 60 },
    ];
    expect(
      parse(chatgptConversation(tie, null))
        .messages.filter((m) => m.onVisiblePath)
        .map((m) => m.externalId),
    ).toEqual(['u1', 'a-new']);

    const untimed: NodeSpec[] = [
      { id: 'u1', parent: null, time: 50 },
      { id: 'a-timed', parent: 'u1', role: 'assistant', time: 70 },
      { id: 'a-untimed', parent: 'u1', role: 'assistant' },
    ];
    expect(
      parse(chatgptConversation(untimed, null))
        .messages.filter((m) => m.onVisiblePath)
        .map((m) => m.externalId),
    ).toEqual(['u1', 'a-timed']);
  });

  it('still follows current_node when the export names it', () => {
    const conv = hiddenSample();
    conv.current_node = 'hidden';
    const c = parse(conv);
    expect(c.messages.filter((m) => m.onVisiblePath).map((m) => m.externalId)).toEqual(['hidden']);
    expect(c.notes).toEqual([]);
  });
});
