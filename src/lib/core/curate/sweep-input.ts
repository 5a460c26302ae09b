import type { NoteRecord } from '../records';
import type { SimilarPair } from './clusters';
import { NearDuplicateScan, type ScanOptions } from './near-duplicates';
import { isActive } from './provenance';
import { NEAR_DUPLICATE_THRESHOLD } from './similarity';
import type { ContradictionPair, SweepInput } from './sweep';

/**
 * The notes the sweep reads: atomic notes of any status, not resources (pasted documents) nor
 * web pages. The one definition, used by sweepInputFrom and by the background job
 * (services/curation/sweep-job.ts), so both read the same notes.
 */
export const isSweptNote = (note: NoteRecord): boolean => note.tier !== 'resource' && note.tier !== 'web';

export interface ScannedPairs {
  similarPairs: SimilarPair[];
  contradictions: ContradictionPair[];
}

/** Feeds a confirmed pair into the lists (the job calls this per pair too). */
export function takePair(scan: NearDuplicateScan, i: number, j: number, into: ScannedPairs): void {
  const verdict = scan.confirm(i, j);
  if (!verdict) return;
  const a = scan.note(i).id;
  const b = scan.note(j).id;
  if (verdict.kind === 'duplicate') into.similarPairs.push({ a, b, similarity: verdict.similarity });
  else into.contradictions.push({ a, b, conflict: verdict.conflict });
}

export function scanPairs(notes: readonly NoteRecord[], options: ScanOptions = {}): ScannedPairs {
  const scan = new NearDuplicateScan(options);
  for (const note of notes) if (isActive(note)) scan.add(note);
  const out: ScannedPairs = { similarPairs: [], contradictions: [] };
  for (const [i, j] of scan.candidatePairs()) takePair(scan, i, j, out);
  return out;
}

/**
 * Kept notes whose decision-stage proposal still says supersede, with the older note they replace.
 * A contradiction edited away is kept with an `add` proposal (keep-gate.ts, settledKeep), so only a
 * keep as it was or as replacing the older note counts as accepted.
 */
export function acceptedSupersessions(notes: readonly NoteRecord[]): [string, string][] {
  const byId = new Map(notes.map((n) => [n.id, n]));
  const out: [string, string][] = [];
  for (const note of notes) {
    const proposal = note.review?.proposal;
    if (note.status !== 'kept' || note.supersedes || proposal?.action !== 'supersede') continue;
    const older = byId.get(proposal.targetId);
    if (older && older.status === 'kept') out.push([note.id, older.id]);
  }
  return out;
}

/**
 * The sweep's input from the notes alone, in one synchronous pass (tests, the CLI, small vaults;
 * the background job in services/curation runs the same steps in slices): near-duplicate and
 * contradiction pairs over every active note by LSH candidates confirmed pairwise
 * (near-duplicates.ts), and the supersessions a person accepted by keeping a candidate the
 * decision stage flagged as contradicting an older note.
 */
export function sweepInputFrom(
  notes: readonly NoteRecord[],
  now: number,
  extra: Partial<SweepInput> = {},
  scan: ScanOptions = {},
): SweepInput {
  const engrams = notes.filter(isSweptNote);
  const accepted = acceptedSupersessions(engrams);
  return {
    notes: engrams,
    ...scanPairs(engrams, scan),
    threshold: NEAR_DUPLICATE_THRESHOLD.terms,
    acceptedSupersessions: accepted,
    contradicted: new Set(accepted.map(([, older]) => older)),
    now,
    ...extra,
  };
}
