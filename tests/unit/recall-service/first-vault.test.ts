/**
 * A person's first vault: one chat. Its subject's words are in most of its memories, so the vault's own
 * word statistics alone weigh them near zero; the vault-size prior of the relevance judgment
 * (term-coverage.ts, VAULT_PRIOR_DOCUMENTS) keeps an on-topic prompt from being refused there, while
 * an off-topic one still is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termWeight, VAULT_PRIOR_DOCUMENTS } from '../../../src/lib/core/recall/term-coverage';
import { chatVault, GARDEN, type ChatVault } from './chat-vault';

describe('recall in a vault of one chat', () => {
  let chats: ChatVault;

  beforeAll(async () => {
    chats = await chatVault([['garden.txt', GARDEN]]);
  }, 60_000);

  afterAll(() => chats.close());

  const ask = async (prompt: string) => (await chats.ask(prompt)).result;

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
