import type { NoteRecord } from '../records';
import type { NoteChange } from './changes';
import { detectConflict } from './contradiction';
import { isActive, provenanceOf } from './provenance';

/**
 * Near-duplicate clusters for the cleaning sweep. Edges come from the index (similar pairs with
 * their similarity) plus equal content hashes; pairs that contradict each other are never merged.
 * The canonical note is the highest-provenance copy; ties go to the earliest keptAt (never-kept
 * last), then the earliest createdAt, then the id. A pinned note is never archived: when a cluster
 * holds one, the canonical is a pinned note and other pinned notes stay as they are.
 */
export interface SimilarPair {
  a: string;
  b: string;
  similarity: number;
}

export interface DuplicateCluster {
  canonical: NoteRecord;
  duplicates: NoteRecord[];
}

function rank(a: NoteRecord, b: NoteRecord): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  const p = provenanceOf(b) - provenanceOf(a);
  if (p !== 0) return p;
  const ka = a.keptAt ?? Number.POSITIVE_INFINITY;
  const kb = b.keptAt ?? Number.POSITIVE_INFINITY;
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function clusterNearDuplicates(notes: readonly NoteRecord[], pairs: readonly SimilarPair[], threshold: number): DuplicateCluster[] {
  const active = new Map(notes.filter(isActive).map((n) => [n.id, n]));
  const parent = new Map<string, string>([...active.keys()].map((id) => [id, id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    parent.set(id, root);
    return root;
  };
  const link = (a: NoteRecord, b: NoteRecord): void => {
    if (detectConflict(a.text, b.text)) return;
    parent.set(find(a.id), find(b.id));
  };
  const byHash = new Map<string, NoteRecord>();
  for (const note of active.values()) {
    const same = byHash.get(note.contentHash);
    if (same) link(same, note);
    else byHash.set(note.contentHash, note);
  }
  for (const pair of pairs) {
    const a = active.get(pair.a);
    const b = active.get(pair.b);
    if (a && b && pair.similarity >= threshold) link(a, b);
  }
  const groups = new Map<string, NoteRecord[]>();
  for (const note of active.values()) {
    const root = find(note.id);
    groups.set(root, [...(groups.get(root) ?? []), note]);
  }
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => {
      const [canonical, ...rest] = [...group].sort(rank);
      return { canonical: canonical as NoteRecord, duplicates: rest };
    })
    .sort((x, y) => (x.canonical.id < y.canonical.id ? -1 : 1));
}

/**
 * The changes that collapse a cluster: the canonical note gathers the duplicates' citations and
 * access counts; each unpinned duplicate is archived and linked to it through `supersededBy`.
 */
export function collapseClusterChanges(cluster: DuplicateCluster, now: number): NoteChange[] {
  const merged = cluster.duplicates.filter((d) => !d.pinned);
  if (merged.length === 0) return [];
  const { canonical } = cluster;
  const ids = [...new Set([...canonical.sourceMessageIds, ...merged.flatMap((d) => d.sourceMessageIds)])];
  const lastAccess = Math.max(canonical.lastAccessedAt ?? 0, ...merged.map((d) => d.lastAccessedAt ?? 0));
  const why = `Near-duplicates collapsed into the highest-provenance copy (${merged.length} merged).`;
  const changes: NoteChange[] = [
    {
      recordId: canonical.id,
      action: 'merge-canonical',
      why,
      before: canonical,
      after: {
        ...canonical,
        sourceMessageIds: ids,
        accessCount: canonical.accessCount + merged.reduce((sum, d) => sum + d.accessCount, 0),
        lastAccessedAt: lastAccess > 0 ? lastAccess : canonical.lastAccessedAt,
        confidence: Math.max(canonical.confidence, ...merged.map((d) => d.confidence)),
        updatedAt: now,
      },
    },
  ];
  for (const duplicate of merged) {
    changes.push({
      recordId: duplicate.id,
      action: 'merge-duplicate',
      why,
      before: duplicate,
      after: {
        ...duplicate,
        status: 'archived',
        supersededBy: canonical.id,
        flags: [...new Set([...duplicate.flags, 'duplicate'])],
        updatedAt: now,
      },
    });
  }
  return changes;
}
