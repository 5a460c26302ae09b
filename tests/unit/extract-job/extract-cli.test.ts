import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { GARDEN_TRANSCRIPT } from './helpers';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

interface Out {
  extractor: string;
  conversations: {
    run: { extractors: string[] };
    candidates: {
      category: string;
      text: string;
      citations: { id: string; role: string }[];
      validatorFlags: string[];
      qualityFlags: string[];
    }[];
  }[];
}

describe('engram extract', () => {
  it('imports into a fresh vault and prints every candidate with its category, citations with roles and flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-extract-'));
    writeFileSync(join(dir, 'garden.txt'), GARDEN_TRANSCRIPT);
    const json = await run(['extract', join(dir, 'garden.txt'), '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.out) as Out;
    expect(out.extractor).toBe('rule-based');
    expect(out.conversations).toHaveLength(1);
    const [conversation] = out.conversations;
    expect(conversation!.run.extractors).toEqual(['rule-based']);
    const decision = conversation!.candidates.find((c) => c.category === 'Decisions')!;
    expect(decision.text).toBe("I've decided to prune the maple in late February.");
    expect(decision.citations.map((c) => c.role)).toEqual(['user']);
    for (const c of conversation!.candidates) {
      expect(c.citations.length).toBeGreaterThan(0);
      expect(Array.isArray(c.validatorFlags)).toBe(true);
      expect(Array.isArray(c.qualityFlags)).toBe(true);
    }

    const text = await run(['extract', join(dir, 'garden.txt')]);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Extractor: rule-based');
    expect(text.out).toContain("[Decisions] I've decided to prune the maple in late February.");
    expect(text.out).toMatch(/cites msg_[0-9a-f]+ \(user\)/u);
  });

  it('asks for a file', async () => {
    const result = await run(['extract']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('Name at least one export file');
  });
});
