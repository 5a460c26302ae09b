/**
 * The ordering rule (DESIGN: "precision, not only recall"): a high-provenance engram about Hubble's
 * law shares "space", "distance" and "expansion" with a Japanese-garden prompt. Lexical retrieval and
 * provenance both reward it; the fit-gate, ahead of provenance ranking, must keep it off the top.
 */
import { describe, expect, it } from 'vitest';
import { assemblePackage } from '../../../src/lib/core/recall/budget';
import { recall } from '../../../src/lib/core/recall/recall';
import type { RecallResult } from '../../../src/lib/core/recall/types';
import { HANG, scriptedLlm, type ScriptStep } from '../../factories/scripted-llm';
import { candidateRecord, DAY, fakeSanitize, NOW } from '../../factories/recall';
import { harnessIndex } from '../../factories/recall-harness';

const prompt = 'How does negative space create a sense of distance and expansion in a Japanese garden?';
const records = [
  candidateRecord({
    id: 'hubble',
    kind: 'note',
    tier: 'engram',
    text: "Hubble's law: galaxies recede at a speed proportional to their distance, because the expansion of space stretches the distance between them.",
    sourceTitle: 'Cosmology reading notes',
  }),
  candidateRecord({
    id: 'ma',
    text: 'In a Japanese garden, ma is negative space: empty raked gravel that gives the eye room to rest.',
    sourceTitle: 'Garden design',
  }),
  candidateRecord({
    id: 'shakkei',
    text: 'Borrowed scenery and open space make a small Japanese garden feel larger and suggest distance.',
    sourceTitle: 'Garden design',
  }),
  candidateRecord({
    id: 'karesansui',
    tier: 'resource',
    text: 'Dry gardens leave open gravel between stone groups: the space is part of the design.',
    sourceTitle: 'Karesansui primer',
  }),
  candidateRecord({ id: 'bread', text: 'Feed the sourdough starter twice a day.', createdAt: NOW - 3 * DAY }),
];

/** The gate a small model would be: it judges each memory's field against the intent. */
const judgeByField: ScriptStep = (messages) => {
  const refs = [...messages[1]!.content.matchAll(/<memory ref="(m\d+)"[^>]*>\n([^<]*)\n<\/memory>/gu)];
  return JSON.stringify({
    verdicts: refs.map(([, ref, text]) =>
      /galax|Hubble/u.test(text!)
        ? { ref, keep: false, reason: 'Cosmology (the expansion of the universe), not garden design.' }
        : { ref, keep: true, reason: 'Japanese garden design.' },
    ),
  });
};

async function run(gate: ScriptStep): Promise<RecallResult> {
  const deps = await harnessIndex(records);
  const llm = scriptedLlm([gate]);
  const result = await recall(
    { prompt, intent: 'Landscape design: how negative space shapes depth in Japanese gardens' },
    { ...deps, llm, now: NOW },
    // The fake answers the gate only: decomposition stays deterministic here.
    { gateTimeoutMs: 50, llmDecompose: false },
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('contamination fixture: Hubble engram vs Japanese-garden prompt', () => {
  it('reaches the gate: it survives retrieval and the floor', async () => {
    const result = await run(judgeByField);
    const reachedGate = [...result.items, ...result.dropped.filter((d) => d.stage === 'fit-gate').map((d) => d.candidate)];
    expect(reachedGate.map((c) => c.record.id)).toContain('hubble');
  });

  it('with the gate: dropped with a reason, and it never tops the package', async () => {
    const result = await run(judgeByField);
    expect(result.gate).toMatchObject({ ran: true, dropped: 1 });
    expect(result.dropped).toContainEqual({
      candidate: expect.objectContaining({ record: expect.objectContaining({ id: 'hubble' }) }),
      stage: 'fit-gate',
      reason: 'Cosmology (the expansion of the universe), not garden design.',
    });
    expect(result.items.map((c) => c.record.id)).not.toContain('hubble');
    expect(result.items[0]!.record.id).toBe('karesansui');
    const pkg = assemblePackage(result.items, { window: 128_000, format: 'markdown', sanitize: fakeSanitize });
    expect(pkg.entries[0]!.ref).not.toBe('hubble');
    expect(pkg.text).not.toContain('Hubble');
    expect(pkg.text).toContain('negative space');
  });

  it.each([
    ['timing out', HANG, 'timeout'],
    ['answering garbage', 'I think memory 1 is about space.', 'invalid-output'],
  ] as const)('with the gate %s: kept (fail-open), on top by provenance, and the failure is shown', async (_, gate, reason) => {
    const result = await run(gate);
    expect(result.gate).toMatchObject({ ran: false, reason, message: expect.stringContaining('did not run') });
    expect(result.items[0]!.record.id).toBe('hubble');
    expect(result.dropped.filter((d) => d.stage === 'fit-gate')).toEqual([]);
  });
});
