/**
 * A person's first vault: one chat. Its subject's words are in most of its memories, so the vault's own
 * word statistics alone weigh them near zero; the vault-size prior of the relevance judgment
 * (term-coverage.ts, VAULT_PRIOR_DOCUMENTS) keeps an on-topic prompt from being refused there, while
 * an off-topic one still is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termWeight, VAULT_PRIOR_DOCUMENTS } from '../../../src/lib/core/recall/term-coverage';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { openInProcessIndex, type InProcessIndex } from '../../../src/lib/services/index/in-process';
import type { Vault } from '../../../src/lib/store/vault';
import { freshVault, importText } from '../extract-job/helpers';

const GARDEN = [
  'User: My Rachio controller waters the tomato beds through Hunter valves. Should I switch the hub to Zigbee?',
  'Assistant: The Rachio works over Wi-Fi; Hunter valves are wired at 24V. Zigbee would only matter for extra soil sensors.',
  "User: Then I'll keep the Rachio on Wi-Fi and add two Hunter valves for the new beds.",
  'Assistant: Run the Hunter valve wires back to the Rachio box; no Zigbee needed.',
].join('\n');

describe('recall in a vault of one chat', () => {
  let vault: Vault;
  let index: InProcessIndex;

  beforeAll(async () => {
    vault = await freshVault();
    const [id] = await importText(vault, GARDEN, 'garden.txt');
    await extractAndStore({ vault, neighbours: termNeighbours(vault), llm: () => null }, id!);
    index = await openInProcessIndex(vault);
    await index.runJobs();
  }, 60_000);

  afterAll(async () => {
    index.close();
    await vault.db.delete();
  });

  const ask = async (prompt: string) => {
    const answer = await index.recaller().answer({ prompt }, { writeBack: false });
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value.result;
  };

  it('answers an overview of its own subject (refused without the prior)', async () => {
    const result = await ask('Give me an overview of the Rachio and Hunter valves setup');
    expect(result.holdsNothing).toBeNull();
    expect(result.items.some((i) => i.record.text.includes('Hunter valves'))).toBe(true);
  });

  it('still says it holds nothing on an off-topic prompt', async () => {
    const result = await ask('How do I tune the PID loop of my espresso machine?');
    expect(result.holdsNothing).not.toBeNull();
  });

  it('the prior lifts a word every memory holds in a small vault, and fades in a large one', () => {
    const share = (documents: number, prior: number) => termWeight(documents, documents, prior) / termWeight(0, documents, prior);
    expect(share(8, 0)).toBeLessThan(0.05);
    expect(share(8, VAULT_PRIOR_DOCUMENTS)).toBeGreaterThan(0.2);
    expect(share(5_000, VAULT_PRIOR_DOCUMENTS)).toBeCloseTo(share(5_000, 0), 3);
  });
});
