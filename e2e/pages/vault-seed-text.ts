/** The texts of the e2e seed vaults (vault-seed.ts), for specs that look for them. */
export const SEED_TEXT = {
  a: { title: 'Pruning the Japanese maple', note: 'Prune Japanese maples in late winter.', extra: '庭園の苔 🙂 — שלום' },
  b: { title: 'Moss garden watering', note: 'Water the moss garden every morning in summer.', extra: 'Stone lanterns need no water.' },
  shared: { title: 'Garden plan for spring', note: 'Spring plan: moss first, then the maple.' },
} as const;
