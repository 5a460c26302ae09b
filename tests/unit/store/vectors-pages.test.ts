import { afterEach, describe, expect, it } from 'vitest';
import type { VectorRecord } from '../../../src/lib/core/records';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { VectorsRepo } from '../../../src/lib/store/vectors-repo';

const opened: Vault[] = [];
afterEach(async () => {
  for (const vault of opened.splice(0)) {
    vault.db.close();
    await vault.db.delete();
  }
});

const row = (recordId: string, label: number, modelId = 'm'): VectorRecord => ({
  recordId,
  modelId,
  dims: 2,
  vector: Float32Array.of(1, 0),
  contentHash: `h-${recordId}`,
  label,
});

async function pagesOf(labels: number[], size: number): Promise<{ pages: string[][]; all: string[] }> {
  const vault = await openVault(`vectors-pages-${process.pid}-${opened.length}-${Date.now()}`);
  opened.push(vault);
  const repo = new VectorsRepo(vault.db);
  await repo.put(labels.map((label, i) => row(`r${i}`, label)));
  await repo.put([row('other-model', 2, 'n')]);
  const pages: string[][] = [];
  for await (const page of repo.pages('m', size)) pages.push(page.map((r) => r.recordId));
  return { pages, all: labels.map((_, i) => `r${i}`) };
}

describe('VectorsRepo.pages', () => {
  it('reads every row of the model once, in label order', async () => {
    const { pages, all } = await pagesOf([5, 1, 3, 2, 4], 2);
    expect(pages).toEqual([['r1', 'r3'], ['r2', 'r4'], ['r0']]);
    expect(pages.flat().sort()).toEqual(all.sort());
  });

  it('reads rows that share a label (merged from another vault) across a page boundary', async () => {
    // Labels 1, 2, 2, 2, 3 read two at a time: a page ends inside the run of 2s.
    const { pages, all } = await pagesOf([1, 2, 2, 2, 3], 2);
    expect(pages.flat().sort()).toEqual(all.sort());
    expect(pages.flat().length).toBe(5);
  });

  it('reads a run of one label longer than a page', async () => {
    const { pages, all } = await pagesOf([7, 7, 7, 7, 7, 8, 6], 2);
    expect(pages.flat().sort()).toEqual(all.sort());
    expect(pages.flat().length).toBe(7);
  });
});

describe('VectorsRepo.count', () => {
  it("counts one model's rows whether the table holds it alone, beside another model, or not at all", async () => {
    const vault = await openVault(`vectors-count-${process.pid}-${Date.now()}`);
    opened.push(vault);
    const repo = new VectorsRepo(vault.db);
    expect(await repo.count('m')).toBe(0);
    await repo.put([row('a', 0), row('b', 1), row('c', 2)]);
    expect(await repo.count('m')).toBe(3); // alone: the table's own count
    expect(await repo.count('n')).toBe(0);
    await repo.put([row('a', 0, 'n'), row('d', 1, 'n')]);
    expect(await repo.count('m')).toBe(3); // beside another model: the model's range
    expect(await repo.count('n')).toBe(2);
    await repo.deleteModel('m');
    expect(await repo.count('n')).toBe(2);
    expect(await repo.count('m')).toBe(0);
  });
});

describe('a record’s vectors by the primary key (schema 10 has no recordId index)', () => {
  it('deleteRecords removes every embedder’s vector of those records, and no other; recordIds lists each record once', async () => {
    const vault = await openVault(`vectors-records-${process.pid}-${Date.now()}`);
    opened.push(vault);
    const repo = new VectorsRepo(vault.db);
    // "a" is a prefix of "ab": a range per record must not reach a longer id.
    await repo.put([row('a', 0), row('a', 0, 'n'), row('ab', 1), row('b', 2), row('b', 1, 'n'), row('c', 3)]);
    expect(await repo.recordIds()).toEqual(['a', 'ab', 'b', 'c']);
    expect(await repo.deleteRecords(['a', 'b', 'b', 'missing'])).toBe(4);
    const left = (await vault.db.vectors.toCollection().primaryKeys()).map(([id, model]) => `${id}/${model}`);
    expect(left).toEqual(['ab/m', 'c/m']);
    expect(await repo.recordIds()).toEqual(['ab', 'c']);
  });
});
