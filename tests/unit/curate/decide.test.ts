import { describe, expect, it } from 'vitest';
import { decideByRules, decideCandidate, type CurationCandidate, type Neighbour } from '../../../src/lib/core/curate/decide';
import { qualityFlags } from '../../../src/lib/core/curate/quality-gate';
import { contentHash } from '../../../src/lib/core/text/normalize';
import { note } from '../../factories/records';
import { recordedLlm, ScriptedLlm } from '../../factories/scripted-llm';

const candidate = async (text: string, category = 'Facts'): Promise<CurationCandidate> => ({
  text,
  category,
  contentHash: await contentHash(text),
});
const near = async (id: string, text: string, similarity: number, over = {}): Promise<Neighbour> => ({
  note: note({ id, text, contentHash: await contentHash(text), status: 'kept', ...over }),
  similarity,
});
const options = { threshold: 0.92 };

describe('decision stage (rules)', () => {
  it('proposes a merge for an exact duplicate by content hash (case and final punctuation ignored)', async () => {
    const proposal = decideByRules(
      await candidate('the maple stands in a courtyard!'),
      [await near('n1', 'The maple stands in a courtyard.', 0.5)],
      options,
    );
    expect(proposal).toMatchObject({ action: 'merge', reason: 'exact-duplicate' });
  });

  it('proposes a merge for a near duplicate above the threshold', async () => {
    const proposal = decideByRules(
      await candidate('Vault notes live in IndexedDB.'),
      [await near('n1', 'The vault keeps notes in browser storage.', 0.95)],
      options,
    );
    expect(proposal).toMatchObject({ action: 'merge', reason: 'near-duplicate', similarity: 0.95 });
  });

  it('proposes a merge when the terms overlap above the calibrated term threshold', async () => {
    const proposal = decideByRules(
      await candidate('Japanese maples are pruned in late winter.'),
      [await near('n1', 'Prune Japanese maples in late winter.', 0.5)],
      options,
    );
    expect(proposal).toMatchObject({ action: 'merge', reason: 'near-duplicate' });
  });

  it('proposes supersession for a contradiction, even when it is the most similar note', async () => {
    const proposal = decideByRules(
      await candidate('The vault file is not encrypted by default.'),
      [await near('n1', 'The vault file is encrypted by default.', 0.97)],
      options,
    );
    expect(proposal).toMatchObject({ action: 'supersede', checkedBy: 'rules' });
    if (proposal.action === 'supersede') expect(proposal.conflict?.kind).toBe('negation');
  });

  it('treats a swapped choice as a contradiction between decisions only', async () => {
    const other = await near('n1', 'Use SQLite for vault storage.', 0.8, { category: 'Decisions' });
    expect(decideByRules(await candidate('Use Dexie for vault storage.', 'Decisions'), [other], options).action).toBe('supersede');
    expect(decideByRules(await candidate('Use Dexie for vault storage.', 'Ideas'), [other], options).action).toBe('add');
  });

  it('adds when nothing is close, and ignores superseded, archived and discarded notes', async () => {
    const gone = await near('n1', 'The maple stands in a courtyard.', 0.99, { status: 'superseded' });
    expect(decideByRules(await candidate('The maple stands in a courtyard.'), [gone], options)).toEqual({ action: 'add' });
  });

  it('looks at the top 5 neighbours only', async () => {
    const neighbours = await Promise.all([0.9, 0.85, 0.8, 0.75, 0.7].map((s, i) => near(`n${i}`, `Unrelated statement number ${i}.`, s)));
    neighbours.push(await near('n9', 'The maple stands in a courtyard.', 0.1));
    expect(decideByRules(await candidate('The maple stands in a courtyard.'), neighbours, options)).toEqual({ action: 'add' });
  });
});

describe('decision stage with the LLM check', () => {
  it('lets the model flag a contradiction the rules miss, in one batched call', async () => {
    const llm = recordedLlm('contradiction-check');
    const decision = await decideCandidate(
      await candidate('Vault notes now live in IndexedDB.'),
      [await near('n1', 'Vault notes live in SQLite via WASM.', 0.8), await near('n2', 'The maple stands in a courtyard.', 0.3)],
      { ...options, llm },
    );
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]?.messages[1]?.content).toContain('1. Vault notes live in SQLite via WASM.');
    expect(decision.proposal).toMatchObject({
      action: 'supersede',
      checkedBy: 'llm',
      llmReason: 'The storage engine changed from SQLite to IndexedDB.',
    });
  });

  it('lets the model dismiss a rule-flagged contradiction', async () => {
    const decision = await decideCandidate(
      await candidate('The vault file is not encrypted by default.'),
      [await near('n1', 'The vault file is encrypted by default.', 0.5)],
      { ...options, llm: recordedLlm('contradiction-dismissed') },
    );
    expect(decision.proposal.action).toBe('add');
  });

  it('keeps the rules decision and reports the error when the model fails', async () => {
    const llm = new ScriptedLlm([{ output: 'no json here' }]);
    const decision = await decideCandidate(
      await candidate('The vault file is not encrypted by default.'),
      [await near('n1', 'The vault file is encrypted by default.', 0.5)],
      { ...options, llm },
    );
    expect(decision.proposal).toMatchObject({ action: 'supersede', checkedBy: 'rules' });
    expect(decision.llmError?.code).toBe('llm/invalid-output');
  });

  it('never asks the model about an exact duplicate', async () => {
    const llm = new ScriptedLlm([]);
    await decideCandidate(await candidate('The maple stands in a courtyard.'), [await near('n1', 'The maple stands in a courtyard.', 1)], {
      ...options,
      llm,
    });
    expect(llm.calls).toHaveLength(0);
  });
});

describe('quality-gate flags', () => {
  it('flags too long, several claims, hedged, duplicate and contradiction', async () => {
    expect(qualityFlags('One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen.')).toEqual([
      'too-long',
    ]);
    expect(qualityFlags('The maple is old; the courtyard is shaded.')).toEqual(['several-claims']);
    expect(qualityFlags('Maybe moss would suit the courtyard.')).toEqual(['hedged']);
    const target = (await near('n1', 'x', 1)).note;
    expect(qualityFlags('The maple is old.', { action: 'merge', target, reason: 'exact-duplicate', similarity: 1 })).toEqual(['duplicate']);
    expect(qualityFlags('The maple is old.', { action: 'supersede', target, conflict: null, checkedBy: 'llm', llmReason: 'x' })).toEqual([
      'contradicts',
    ]);
    expect(qualityFlags('The maple is old.', { action: 'add' })).toEqual([]);
  });
});
