import { CATEGORIES, isCategory, type Category, type UnitKind } from './units';

const squash = (value: string): string => value.toLowerCase().replace(/[^a-z]/gu, '');
const BY_SQUASHED = new Map<string, Category>(CATEGORIES.map((category) => [squash(category), category]));

/** A category as a model may spell it ("open questions", "Action items", "Provisional"), or null. */
export function looseCategory(value: unknown): Category | null {
  if (isCategory(value)) return value;
  if (typeof value !== 'string') return null;
  const key = squash(value);
  if (!key) return null;
  const exact = BY_SQUASHED.get(key) ?? BY_SQUASHED.get(`${key}s`);
  if (exact) return exact;
  if (key.startsWith('provisional') || key.startsWith('exploratory')) return 'Provisional/Exploratory';
  if (key === 'questions' || key === 'question') return 'Open Questions';
  if (key === 'actions' || key === 'todo' || key === 'todos') return 'Action Items';
  return null;
}

const KIND_OF: Record<Category, UnitKind> = {
  Decisions: 'decision',
  'Open Questions': 'question',
  Constraints: 'constraint',
  Facts: 'fact',
  Ideas: 'claim',
  'Action Items': 'action-item',
  Topics: 'fact',
  'Provisional/Exploratory': 'claim',
};

export function kindForCategory(category: Category): UnitKind {
  return KIND_OF[category];
}
