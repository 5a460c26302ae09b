/**
 * The model's hints (core/recall/llm-hints.ts), against the scripted fake model: what is asked, what
 * is kept of the answer, and that any failure leaves rule hints to stand in.
 */
import { describe, expect, it } from 'vitest';
import { VaultFailure, vaultError } from '../../../src/lib/core/errors';
import { HINT_BATCH, llmHints } from '../../../src/lib/core/recall/llm-hints';
import { ScriptedLlm } from '../../factories/scripted-llm';

const units = [
  { text: "We'll stay in Alfama, not Baixa.", category: 'Decisions' },
  { text: 'Budget for the trip is €1,200 at most.', category: 'Constraints' },
];

describe('llm hints', () => {
  it('asks once per batch with the units numbered, and keeps up to five clean questions per unit', async () => {
    const llm = new ScriptedLlm([
      {
        outputJson: {
          hints: [
            {
              unit: 1,
              questions: [
                'Which neighbourhood did we pick for the hotel?',
                'Which neighbourhood did we pick for the hotel?',
                'ok?',
                'Where are we staying in Lisbon?',
                'a',
                'b',
                'Q3 is long enough?',
                'Q4 is long enough?',
                'Q5 is long enough?',
                'Q6 is long enough?',
              ],
            },
            { unit: 2, questions: ['How much can the trip cost?'] },
            { unit: 7, questions: ['Not a unit of the batch?'] },
          ],
        },
      },
    ]);
    const got = await llmHints(units, llm);
    expect(got.fallbackReason).toBeNull();
    expect(got.llmId).toBe('fake:scripted');
    expect(got.hints[0]).toEqual([
      'Which neighbourhood did we pick for the hotel?',
      'Where are we staying in Lisbon?',
      'Q3 is long enough?',
      'Q4 is long enough?',
      'Q5 is long enough?',
    ]);
    expect(got.hints[1]).toEqual(['How much can the trip cost?']);
    const [call] = llm.calls;
    expect(call!.messages[1]!.content).toBe(
      "1. [Decisions] We'll stay in Alfama, not Baixa.\n2. [Constraints] Budget for the trip is €1,200 at most.",
    );
    expect(call!.options.jsonSchema).toBeDefined();
  });

  it(`splits the units into batches of ${HINT_BATCH}`, async () => {
    const many = Array.from({ length: HINT_BATCH + 3 }, (_, i) => ({ text: `Unit number ${i} of the list.`, category: 'Facts' }));
    const answer = (n: number) => ({
      outputJson: { hints: Array.from({ length: n }, (_, i) => ({ unit: i + 1, questions: [`What about unit ${i + 1}?`] })) },
    });
    const llm = new ScriptedLlm([answer(HINT_BATCH), answer(3)]);
    const got = await llmHints(many, llm);
    expect(llm.calls).toHaveLength(2);
    expect(got.hints[HINT_BATCH]).toEqual(['What about unit 1?']);
    expect(got.hints.every((h) => h.length === 1)).toBe(true);
  });

  it('without a model, or with an answer that does not parse or a failed call, gives no model hints and says why', async () => {
    expect((await llmHints(units, null)).fallbackReason?.code).toBe('llm/unavailable');
    const bad = await llmHints(units, new ScriptedLlm([{ outputJson: { questions: ['not the schema'] } }]));
    expect(bad.fallbackReason?.code).toBe('llm/invalid-output');
    expect(bad.hints).toEqual([[], []]);
    const failed = await llmHints(
      units,
      new ScriptedLlm([new VaultFailure(vaultError('llm/timeout', 'The scripted model did not answer.'))]),
    );
    expect(failed.fallbackReason?.code).toBe('llm/timeout');
  });

  it('throws a cancellation, as every model stage does', async () => {
    const llm = new ScriptedLlm([new VaultFailure(vaultError('llm/cancelled', 'Cancelled.'))]);
    await expect(llmHints(units, llm)).rejects.toThrow();
  });
});
