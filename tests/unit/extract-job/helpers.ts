import { queueAfterPublish } from '../../../src/lib/store/extract-queue';
import { runImport } from '../../../src/lib/store/importer';
import { openVault, type Vault } from '../../../src/lib/store/vault';

let counter = 0;

export async function freshVault(): Promise<Vault> {
  counter += 1;
  return openVault(`extract-job-${process.pid}-${counter}-${Date.now()}`);
}

/** A plain transcript the rule-based extractor finds a decision, a constraint, a question and an action in. */
export const GARDEN_TRANSCRIPT = [
  'User: My Japanese maple stands in a small courtyard garden. When should I prune it?',
  'Assistant: Prune Japanese maples in late winter while they are dormant. Never remove more than a quarter of the canopy in one year.',
  "User: I've decided to prune the maple in late February. I need to buy sharp bypass pruners first.",
  'Assistant: Is the soil acidic? Moss prefers acidic, shaded soil.',
].join('\n');

export async function importText(vault: Vault, text: string, name = 'garden.txt'): Promise<string[]> {
  const bytes = new TextEncoder().encode(text);
  const published: string[] = [];
  const hook = queueAfterPublish(vault);
  await runImport(vault, [{ name, size: bytes.length, bytes }], {
    onPublished: async (ids) => {
      published.push(...ids.conversationIds);
      await hook(ids);
    },
  });
  return published;
}
