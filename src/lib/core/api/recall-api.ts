/**
 * Recall as the index worker serves it (IndexApi.recall): the Recall screen's request, and what
 * comes back (the read path's result, the assembled package, and what the person pinned or dropped).
 * Plain data both ways, so it crosses postMessage as is.
 */
import type { AssembledPackage, FlaggedLinePolicy } from '../recall/budget';
import type { IntentClass } from '../recall/intent-class';
import type { PackageFormat } from '../recall/package-format';
import type { CandidateRecord } from '../recall/ports';
import type { RecallResult } from '../recall/types';

export interface RecallRequest {
  /** The caller's request number: the newest one wins, an older one comes back `stale`. */
  requestId: number;
  prompt: string;
  /** The intent the person edited; null derives it from the prompt. */
  intent: string | null;
  /** The intent class the person chose (entity_lookup, factual, ...); null or absent classifies it. */
  intentClass?: IntentClass | null;
  /** The funnel switch (on by default). */
  funnel: boolean;
  /** Search the hints (core/recall/hints.ts); off when absent. */
  hints?: boolean;
  /** A preset id of model-windows.ts or a custom window in tokens. */
  target: string | number;
  format: PackageFormat;
  /** Always kept, as Core, even when the funnel would drop them or retrieval did not find them. */
  pinned: string[];
  /** Excluded by the person: never retrieved, never packaged. */
  dropped: string[];
  /**
   * A line flagged as possible prompt injection is left out of the package with a marker naming
   * its source (`drop`, the default) or kept, quoted as data (`quote`: the person's setting).
   */
  flaggedLines?: FlaggedLinePolicy;
}

/** An item the person dropped, so the screen can name it and offer to bring it back. */
export interface ExcludedItem {
  id: string;
  record: CandidateRecord | null;
}

export type RecallResponse =
  | { requestId: number; stale: true }
  | {
      requestId: number;
      stale: false;
      result: RecallResult;
      package: AssembledPackage;
      excluded: ExcludedItem[];
      /** The serving embedder the vector lists and the similarity floor came from. */
      embedderId: string;
      /** Indexed documents when the query ran (0: nothing to search yet). */
      documents: number;
    };
