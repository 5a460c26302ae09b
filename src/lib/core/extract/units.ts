import type { Role } from '../records';

/**
 * The vocabulary of semantic extraction (DESIGN, write path step 4): unit kinds, output
 * categories, and which kind may be filed under which category.
 */
export const UNIT_KINDS = ['claim', 'decision', 'question', 'constraint', 'fact', 'action-item'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

export const CATEGORIES = [
  'Decisions',
  'Open Questions',
  'Constraints',
  'Facts',
  'Ideas',
  'Action Items',
  'Topics',
  'Provisional/Exploratory',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** The category a kind is filed under when nothing else is said. */
export const DEFAULT_CATEGORY: Record<UnitKind, Category> = {
  claim: 'Ideas',
  decision: 'Decisions',
  question: 'Open Questions',
  constraint: 'Constraints',
  fact: 'Facts',
  'action-item': 'Action Items',
};

/** Categories a kind may take. A hedged unit of any kind but a question may go to Provisional/Exploratory. */
export const ALLOWED_CATEGORIES: Record<UnitKind, readonly Category[]> = {
  claim: ['Ideas', 'Facts', 'Topics', 'Provisional/Exploratory'],
  decision: ['Decisions'],
  question: ['Open Questions'],
  constraint: ['Constraints', 'Provisional/Exploratory'],
  fact: ['Facts', 'Topics', 'Provisional/Exploratory'],
  'action-item': ['Action Items', 'Provisional/Exploratory'],
};

export const MAX_UNIT_WORDS = 15;

export function isUnitKind(value: unknown): value is UnitKind {
  return typeof value === 'string' && (UNIT_KINDS as readonly string[]).includes(value);
}

export function isCategory(value: unknown): value is Category {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

/** A message as extraction sees it: its stored id, who said it, and its text. */
export interface ExtractionMessage {
  id: string;
  role: Role;
  text: string;
  createdAt: number | null;
}

/** A unit as an extractor proposes it, before validation. Fields may be anything a model wrote. */
export interface RawUnit {
  kind: unknown;
  category: unknown;
  text: unknown;
  sourceMessageIds: unknown;
}

/** Why a unit was repaired or dropped: a stable code and a sentence. */
export interface ValidationNote {
  rule: ValidationRule;
  message: string;
}

export type ValidationRule =
  | 'malformed'
  | 'empty'
  | 'unknown-kind'
  | 'unknown-category'
  | 'category-mismatch'
  | 'no-citation'
  | 'unknown-citation'
  | 'decision-not-user'
  | 'hedged'
  | 'interrogative'
  | 'several-claims'
  | 'too-long'
  | 'repetition';

/** A unit that passed the validator, possibly after repair. */
export interface CandidateUnit {
  kind: UnitKind;
  category: Category;
  text: string;
  sourceMessageIds: string[];
  /** Repairs applied (empty when the unit passed unchanged). */
  repairs: ValidationNote[];
  /** Write-time safety flags of the unit's own text (a model may echo an injection). */
  flags?: string[];
}

export interface RejectedUnit {
  raw: RawUnit;
  reasons: ValidationNote[];
}

export function wordCount(text: string): number {
  const words = text
    .trim()
    .split(/\s+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.length;
}
