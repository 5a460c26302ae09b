/**
 * A vault of a few pasted chats as the app holds them: imported by the importer, extracted by the
 * extraction job (rule-based), indexed by the index service; with `ask`, a recall through the recall
 * service. Shared by the recall-service tests, with the everyday chats several of them read.
 */
import type { AnswerOptions, RecallAnswer, RecallServiceOptions } from '../../../src/lib/services/recall/recall-service';
import { extractAndStore, termNeighbours } from '../../../src/lib/services/extraction/extract-job';
import { openInProcessIndex, type InProcessIndex } from '../../../src/lib/services/index/in-process';
import type { Vault } from '../../../src/lib/store/vault';
import { freshVault, importText } from '../extract-job/helpers';

export const GARDEN = [
  'User: My Rachio controller waters the tomato beds through Hunter valves. Should I switch the hub to Zigbee?',
  'Assistant: The Rachio works over Wi-Fi; Hunter valves are wired at 24V. Zigbee would only matter for extra soil sensors.',
  "User: Then I'll keep the Rachio on Wi-Fi and add two Hunter valves for the new beds.",
  'Assistant: Run the Hunter valve wires back to the Rachio box; no Zigbee needed.',
].join('\n');

export const CAT = [
  'User: Miso, my cat, is overweight. The vet, Dr. Patel, wants her to lose 400 grams.',
  'Assistant: Measure portions and switch Miso to wet food twice a day; Dr. Patel may suggest a weight-control formula.',
  "User: Decision: Miso gets wet food twice a day and no more dry food. I'll weigh her every Sunday for Dr. Patel.",
].join('\n');

export interface ChatVault {
  vault: Vault;
  index: InProcessIndex;
  /** Each chat's conversation id, by the file name it was pasted as. */
  ids: Record<string, string>;
  /** One recall (no reads written back); `options` overrides the funnel's, `service` the recall service's. */
  ask(
    prompt: string,
    more?: { pinned?: string[]; dropped?: string[] },
    options?: AnswerOptions,
    service?: RecallServiceOptions,
  ): Promise<RecallAnswer>;
  close(): Promise<void>;
}

/** `chats`: [file name, transcript] pairs, imported and extracted in order, then indexed. */
export async function chatVault(chats: readonly (readonly [string, string])[]): Promise<ChatVault> {
  const vault = await freshVault();
  const ids: Record<string, string> = {};
  for (const [name, text] of chats) {
    const [id] = await importText(vault, text, name);
    ids[name] = id!;
    await extractAndStore({ vault, neighbours: termNeighbours(vault), llm: () => null }, id!);
  }
  const index = await openInProcessIndex(vault);
  await index.runJobs();
  return {
    vault,
    index,
    ids,
    async ask(prompt, more = {}, options = {}, service = {}) {
      const answer = await index.recaller(service).answer({ prompt, ...more }, { writeBack: false, ...options });
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value;
    },
    async close() {
      index.close();
      await vault.db.delete();
    },
  };
}
