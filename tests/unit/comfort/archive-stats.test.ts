import { describe, expect, it } from 'vitest';
import { monthlyCounts, topTopics } from '../../../src/lib/core/overview/archive-stats';

describe('monthlyCounts', () => {
  it('counts conversations and decisions per UTC month, empty months included, undated rows apart', () => {
    const { months, undated } = monthlyCounts(
      [
        { createdAt: Date.UTC(2023, 11, 31, 23) },
        { createdAt: Date.UTC(2024, 2, 1) },
        { createdAt: Date.UTC(2024, 2, 31, 23, 59) },
        { createdAt: null },
      ],
      [{ createdAt: Date.UTC(2024, 0, 15) }, { createdAt: Date.UTC(2024, 2, 2) }],
    );
    expect(months.map((m) => [m.month, m.conversations, m.decisions])).toEqual([
      ['2023-12', 1, 0],
      ['2024-01', 0, 1],
      ['2024-02', 0, 0],
      ['2024-03', 2, 1],
    ]);
    expect(months[0]!.start).toBe(Date.UTC(2023, 11, 1));
    expect(undated).toBe(1);
  });

  it('is empty for an empty or undated archive', () => {
    expect(monthlyCounts([], [])).toEqual({ months: [], undated: 0 });
    expect(monthlyCounts([{ createdAt: null }], [])).toEqual({ months: [], undated: 1 });
  });
});

describe('topTopics', () => {
  it('ranks terms by how many conversations mention them, once per conversation, with the most written form', () => {
    const topics = topTopics([
      { id: 'a', text: 'Pruning the maple. Maple maple maple maple.' },
      { id: 'b', text: 'Watering the maples in summer' },
      { id: 'c', text: 'Summer watering schedule for the garden' },
      { id: 'd', text: 'Garden moss and 2024 plans' },
    ]);
    expect(topics).toEqual([
      { term: 'garden', label: 'garden', conversations: 2 },
      { term: 'mapl', label: 'maple', conversations: 2 },
      { term: 'summer', label: 'summer', conversations: 2 },
      { term: 'water', label: 'watering', conversations: 2 },
    ]);
  });
});
