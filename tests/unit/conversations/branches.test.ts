import { describe, expect, it } from 'vitest';
import { conversationBranches, type TreeMessage } from '../../../src/lib/core/conversations/branches';

const m = (id: string, parent: string | null, ordinal: number, visible: boolean, hidden = false): TreeMessage => ({
  id: `msg-${id}`,
  externalId: id,
  ordinal,
  hidden,
  branch: { onVisiblePath: visible, parentExternalId: parent },
});

describe('conversationBranches', () => {
  it('gives one branch for a plain transcript (every message on the visible thread, no parents)', () => {
    const b = conversationBranches([m('a', null, 0, true), m('b', null, 1, true)]);
    expect(b.visible.messages.map((x) => x.externalId)).toEqual(['a', 'b']);
    expect(b.others).toEqual([]);
  });

  it('finds a regenerated answer and an edited question as branches, with what they share', () => {
    // q1 -> a1 -> q2 -> a2 (visible); q1 -> a1' (regenerated); q1 -> a1 -> q2' -> a2' (edited question)
    const b = conversationBranches([
      m('sys', null, 0, true, true),
      m('q1', 'sys', 1, true),
      m('a1', 'q1', 2, true),
      m('a1x', 'q1', 3, false),
      m('q2', 'a1', 4, true),
      m('q2x', 'a1', 5, false),
      m('a2', 'q2', 6, true),
      m('a2x', 'q2x', 7, false),
    ]);
    expect(b.visible.messages.map((x) => x.externalId)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(b.visible.shared).toBe(4);
    expect(b.others.map((o) => ({ leaf: o.id, path: o.messages.map((x) => x.externalId), shared: o.shared }))).toEqual([
      { leaf: 'msg-a1x', path: ['q1', 'a1x'], shared: 1 },
      { leaf: 'msg-a2x', path: ['q1', 'a1', 'q2x', 'a2x'], shared: 2 },
    ]);
  });

  it('adds no branch for a hidden leaf beside the visible thread (it holds nothing to read)', () => {
    const b = conversationBranches([m('hid', null, 0, false, true), m('q', null, 1, true), m('a', 'q', 2, true)]);
    expect(b.others).toEqual([]);
  });

  it('survives a parent cycle and a parent that was never stored', () => {
    const b = conversationBranches([m('q', 'gone', 0, true), m('x', 'y', 1, false), m('y', 'x', 2, false)]);
    expect(b.visible.messages).toHaveLength(1);
    // x and y point at each other: neither is a leaf, so no branch (and no endless walk).
    expect(b.others).toEqual([]);
  });
});
