/**
 * Message trees (ChatGPT and DeepSeek `mapping`, Open WebUI `history`, Claude and Grok parent
 * ids). The visible thread is the path from the root to the current leaf; every other node is a
 * branch (an edit or a regeneration) and is kept, after the visible thread, in depth-first order.
 * Exports can be inconsistent (missing parents, children lists that disagree with parent
 * pointers, cycles); this walk terminates on any input and says what it repaired.
 */

export interface TreeNode {
  id: string;
  parent: string | null;
  children: readonly string[];
}

export interface TreeOrder {
  /** Root to current leaf. */
  visible: string[];
  /** Every other node, depth-first from the roots, then anything unreachable. */
  others: string[];
  notes: string[];
}

/** Children in the order the export lists them, plus any node that names this one as parent. */
function childrenIndex(nodes: ReadonlyMap<string, TreeNode>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const node of nodes.values()) {
    const listed = node.children.filter((c) => nodes.get(c)?.parent === node.id);
    index.set(node.id, [...new Set(listed)]);
  }
  for (const node of nodes.values()) {
    if (node.parent === null) continue;
    const siblings = index.get(node.parent);
    if (siblings && !siblings.includes(node.id)) siblings.push(node.id);
  }
  return index;
}

/** The path from the root down to `leaf`, following parent pointers, cycle-safe. */
function pathTo(leaf: string, nodes: ReadonlyMap<string, TreeNode>): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id: string | null = leaf; id !== null && nodes.has(id) && !seen.has(id); id = nodes.get(id)!.parent) {
    seen.add(id);
    path.push(id);
  }
  return path.reverse();
}

function rootsOf(nodes: ReadonlyMap<string, TreeNode>): string[] {
  const roots: string[] = [];
  for (const node of nodes.values()) {
    if (node.parent === null || !nodes.has(node.parent)) roots.push(node.id);
  }
  return roots;
}

/**
 * Every node reachable from the roots in pre-order (children in the export's order), cycle-safe.
 * Pre-order lists a node before its descendants and an earlier sibling's subtree before a later
 * one's, so among nodes that tie on anything else, the last one listed is on the newest branch.
 */
export function preorder(nodes: ReadonlyMap<string, TreeNode>): string[] {
  const kids = childrenIndex(nodes);
  const out: string[] = [];
  const visited = new Set<string>();
  const stack = rootsOf(nodes).reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    out.push(id);
    const children = kids.get(id) ?? [];
    for (let k = children.length - 1; k >= 0; k--) if (!visited.has(children[k]!)) stack.push(children[k]!);
  }
  return out;
}

/**
 * The leaf of the thread a person saw last when the export does not name it: the latest message
 * a person could see (`time` null for hidden or structural nodes, undefined time for a visible
 * message without a usable timestamp). Ties, and exports without any timestamps, go to the newest
 * branch (the last in pre-order). Null when no node is visible.
 */
export function latestVisibleLeaf(
  nodes: ReadonlyMap<string, TreeNode>,
  visibleTime: (id: string) => number | undefined | null,
): string | null {
  let best: string | null = null;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (const id of preorder(nodes)) {
    const time = visibleTime(id);
    if (time === null) continue;
    const t = time ?? Number.NEGATIVE_INFINITY;
    if (best === null || t >= bestTime) {
      best = id;
      bestTime = t;
    }
  }
  return best;
}

/**
 * @param current the export's current leaf, if any.
 * @param fallbackLeaf chooses a leaf when `current` is missing or unknown; by default the walk
 *   from the first root always takes the last child (the newest edit or regeneration).
 */
export function orderTree(nodes: ReadonlyMap<string, TreeNode>, current: string | null, fallbackLeaf?: () => string | null): TreeOrder {
  const notes: string[] = [];
  const kids = childrenIndex(nodes);
  const roots = rootsOf(nodes);
  const orphans = roots.filter((id) => nodes.get(id)!.parent !== null);
  if (orphans.length > 0) notes.push(`${orphans.length} node(s) point at a parent that is not in the export; treated as roots`);
  if (roots.length > 1) notes.push(`the tree has ${roots.length} roots`);

  let leaf = current !== null && nodes.has(current) ? current : null;
  if (leaf === null && nodes.size > 0) {
    leaf = fallbackLeaf?.() ?? null;
    if (leaf === null && roots.length > 0) {
      leaf = roots[0]!;
      const seen = new Set<string>([leaf]);
      for (let next = kids.get(leaf)?.at(-1); next !== undefined && !seen.has(next); next = kids.get(next)?.at(-1)) {
        seen.add(next);
        leaf = next;
      }
    }
    if (current !== null) notes.push('the current node named by the export is missing; the newest branch was taken as visible');
    else notes.push('the export names no current node; the newest branch was taken as visible');
  }

  const visible = leaf === null ? [] : pathTo(leaf, nodes);
  const placed = new Set(visible);
  const others: string[] = [];
  // Depth-first from the roots; visible nodes are walked through (their off-path children are
  // branches) but not listed again.
  const visited = new Set<string>();
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    if (!placed.has(id)) {
      placed.add(id);
      others.push(id);
    }
    const children = kids.get(id) ?? [];
    for (let k = children.length - 1; k >= 0; k--) if (!visited.has(children[k]!)) stack.push(children[k]!);
  }
  let unreachable = 0;
  for (const id of nodes.keys()) {
    if (!placed.has(id)) {
      placed.add(id);
      others.push(id);
      unreachable++;
    }
  }
  if (unreachable > 0) notes.push(`${unreachable} node(s) form a cycle or are unreachable from any root; kept as branches`);
  return { visible, others, notes };
}

/** The nearest ancestor of `id` (excluding itself) for which `emitted` has a value. */
export function nearestEmitted(id: string, nodes: ReadonlyMap<string, TreeNode>, emitted: ReadonlyMap<string, string>): string | null {
  const seen = new Set<string>([id]);
  for (let p = nodes.get(id)?.parent ?? null; p !== null && !seen.has(p); p = nodes.get(p)?.parent ?? null) {
    seen.add(p);
    const hit = emitted.get(p);
    if (hit !== undefined) return hit;
  }
  return null;
}
