/**
 * A conversation's branch structure from its stored messages: each message keeps its parent's
 * external id and whether it lies on the visible thread (the import followed `current_node`, or the
 * latest visible leaf, to choose it). Every other leaf ends a branch: the path from its root to it.
 * A regenerated answer or an edited question is such a branch; it shares its first messages with
 * the visible thread and differs after.
 */
import type { BranchInfo } from '../records';

export interface TreeMessage {
  id: string;
  externalId: string;
  ordinal: number;
  hidden: boolean;
  branch: BranchInfo;
}

export interface Branch<T extends TreeMessage> {
  /** 'visible', or the id of the message that ends the branch. */
  id: string;
  /** Messages from the root to the leaf, in order, hidden parts left out. */
  messages: T[];
  /** How many leading messages it shares with the visible thread. */
  shared: number;
}

export interface ConversationBranches<T extends TreeMessage> {
  visible: Branch<T>;
  others: Branch<T>[];
}

/** The visible thread and every other branch, in the order they leave the visible thread. */
export function conversationBranches<T extends TreeMessage>(messages: readonly T[]): ConversationBranches<T> {
  const ordered = [...messages].sort((a, b) => a.ordinal - b.ordinal);
  const byExternal = new Map(ordered.map((m) => [m.externalId, m]));
  const hasChildren = new Set<string>();
  for (const m of ordered)
    if (m.branch.parentExternalId !== null && byExternal.has(m.branch.parentExternalId)) hasChildren.add(m.branch.parentExternalId);
  const visibleIds = new Set(ordered.filter((m) => m.branch.onVisiblePath).map((m) => m.id));
  const shown = (path: readonly T[]) => path.filter((m) => !m.hidden);
  const visible: Branch<T> = { id: 'visible', messages: shown(ordered.filter((m) => visibleIds.has(m.id))), shared: 0 };
  visible.shared = visible.messages.length;

  const seen = new Set<string>([visible.messages.map((m) => m.id).join('\u001f')]);
  const others: Branch<T>[] = [];
  for (const leaf of ordered) {
    if (visibleIds.has(leaf.id) || hasChildren.has(leaf.externalId)) continue;
    const path: T[] = [];
    const walked = new Set<string>();
    for (let at: T | undefined = leaf; at && !walked.has(at.externalId);) {
      walked.add(at.externalId);
      path.unshift(at);
      at = at.branch.parentExternalId === null ? undefined : byExternal.get(at.branch.parentExternalId);
    }
    const list = shown(path);
    const key = list.map((m) => m.id).join('\u001f');
    // A hidden leaf (a system note beside the first question) adds nothing to read.
    if (list.length === 0 || seen.has(key)) continue;
    seen.add(key);
    let shared = 0;
    while (shared < list.length && visibleIds.has(list[shared]!.id)) shared++;
    if (shared === list.length) continue;
    others.push({ id: leaf.id, messages: list, shared });
  }
  others.sort((a, b) => a.shared - b.shared || a.messages[a.shared]!.ordinal - b.messages[b.shared]!.ordinal);
  return { visible, others };
}
