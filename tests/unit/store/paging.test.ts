import { describe, expect, it } from 'vitest';
import { readAhead } from '../../../src/lib/store/paging';

/** Rows 0..count-1 read `size` at a time after the last one; logs each read and each page handed out. */
function table(count: number, log: string[]) {
  return async (last: number | null, size: number) => {
    const from = last === null ? 0 : last + 1;
    log.push(`read ${from}`);
    return Array.from({ length: Math.max(0, Math.min(size, count - from)) }, (_, i) => from + i);
  };
}

describe('readAhead', () => {
  it('asks for the next page before handing out this one, and stops at a short page', async () => {
    const log: string[] = [];
    const read = table(7, log);
    for await (const page of readAhead((last: number | null) => read(last, 3), 3)) log.push(`page ${page.join(',')}`);
    expect(log).toEqual(['read 0', 'read 3', 'page 0,1,2', 'read 6', 'page 3,4,5', 'page 6']);
  });

  it('ends at an empty page when the rows fill the last one exactly', async () => {
    const log: string[] = [];
    const read = table(6, log);
    const pages: number[][] = [];
    for await (const page of readAhead((last: number | null) => read(last, 3), 3)) pages.push(page);
    expect(pages).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(log).toEqual(['read 0', 'read 3', 'read 6']);
  });

  it('throws a failed read at the page that needed it, and a caller that stops early leaves no unhandled rejection', async () => {
    const failing = async (last: number | null) => {
      if (last !== null) throw new Error('read failed');
      return [1, 2];
    };
    const seen: number[][] = [];
    await expect(
      (async () => {
        for await (const page of readAhead(failing, 2)) seen.push(page);
      })(),
    ).rejects.toThrow('read failed');
    expect(seen).toEqual([[1, 2]]);
    // Stopping after the first page: the read ahead fails unobserved, and must not surface.
    for await (const page of readAhead(failing, 2)) {
      expect(page).toEqual([1, 2]);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
