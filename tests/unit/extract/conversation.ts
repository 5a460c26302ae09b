import type { ExtractionMessage } from '../../../src/lib/core/extract/units';

/** A short conversation that fits one window (labels m1-m4), used with the recorded outputs in tests/fixtures/llm. */
export const MAPLE: ExtractionMessage[] = [
  {
    id: 'msg-u1',
    role: 'user',
    text: 'My Japanese maple stands in a small courtyard garden. When should I prune it?',
    createdAt: 1_700_000_000_000,
  },
  {
    id: 'msg-a1',
    role: 'assistant',
    text: 'Prune Japanese maples in late winter while they are dormant. Never remove more than a quarter of the canopy in one year. You could also add a layer of mulch.',
    createdAt: 1_700_000_060_000,
  },
  {
    id: 'msg-u2',
    role: 'user',
    text: "I've decided to prune it in late February. I need to buy sharp bypass pruners first. Maybe moss would suit the ground under it.",
    createdAt: 1_700_000_120_000,
  },
  {
    id: 'msg-a2',
    role: 'assistant',
    text: 'Is the soil acidic? Moss prefers acidic, shaded soil.',
    createdAt: 1_700_000_180_000,
  },
];

/** A long conversation: `turns` exchanges of about `words` words each. */
export function longConversation(turns: number, words = 120): ExtractionMessage[] {
  const sentence = (i: number, j: number): string => `Point ${i}-${j} concerns the courtyard maple and its pruning schedule.`;
  return Array.from({ length: turns }, (_, i) => ({
    id: `long-${i}`,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: Array.from({ length: Math.ceil(words / 10) }, (_, j) => sentence(i, j)).join(' '),
    createdAt: 1_700_000_000_000 + i * 60_000,
  }));
}
