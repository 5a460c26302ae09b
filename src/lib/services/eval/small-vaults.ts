/**
 * `eval small`: recall in a person's first vaults, which hold one chat or a handful. The model-free
 * relevance judgment (core/recall/term-coverage.ts) weighs a prompt's words by how rare they are in the
 * vault; in a vault of one chat every word of its subject is in most memories, so an on-topic prompt
 * can look as if it shared nothing with the vault but its framing ("give", "overview"). This measures
 * it: for each chat the prompt sets name (the `eval questions` and `eval global` prompts, written blind
 * to the system, about chats of the labelled extraction corpus), a vault of that chat and `size - 1`
 * others (a seeded shuffle of the corpus) is imported, extracted (rule-based), swept and indexed as the
 * app does, and asked that chat's prompts (on topic: a refusal is a false one), and every
 * `offtopicEvery`-th vault is asked the off-topic prompts (`eval offtopic`'s: a refusal is right).
 */
import { vaultError, VaultFailure } from '../../core/errors';
import type { LabelledConversation } from '../../core/extract/labelled-corpus';
import { seededRng } from '../../core/seeded-rng';
import type { VectorSearchMode } from '../index/model-index';
import { withIndexedVault } from './eval-vault';
import { corpusVault } from './global-view';

export interface SmallVaultPrompt {
  conversation: string;
  prompt: string;
  /** Which prompt set it came from (`question`, `global`). */
  set: string;
}

export interface RefusalCount {
  asks: number;
  refused: number;
  refusedRate: number;
}

export interface SmallSizeReport {
  /** Vaults built at this size (one per chat the prompts name). */
  vaults: number;
  /** On-topic prompts: every refusal is a false one. */
  onTopic: RefusalCount & { bySet: Record<string, RefusalCount> };
  /** Off-topic prompts asked of every `offtopicEvery`-th vault: a refusal is right. */
  offTopic: RefusalCount;
  /** The on-topic prompts refused: the chat and the prompt. */
  falseRefusals: { conversation: string; prompt: string }[];
  /** The off-topic prompts answered with items: the vault's chat, the prompt and how many items. */
  offTopicAnswered: { conversation: string; prompt: string; items: number }[];
}

export interface SmallVaultsReport {
  /** The chats the vaults are drawn from. */
  corpus: number;
  prompts: number;
  offtopicPrompts: number;
  offtopicEvery: number;
  bySize: Record<string, SmallSizeReport>;
}

export interface SmallVaultsOptions {
  /** Chats per vault (default 1, 3 and 10). */
  sizes?: readonly number[];
  /** Every n-th vault is also asked the off-topic prompts (default 10). */
  offtopicEvery?: number;
  vectors?: VectorSearchMode;
  seed?: number;
  onProgress?: (what: string) => void;
}

export const DEFAULT_SMALL_SIZES = [1, 3, 10] as const;

const count = (asks: number, refused: number): RefusalCount => ({ asks, refused, refusedRate: asks === 0 ? 0 : refused / asks });

export async function runSmallVaults(
  corpus: readonly LabelledConversation[],
  prompts: readonly SmallVaultPrompt[],
  offtopic: readonly string[],
  options: SmallVaultsOptions = {},
): Promise<SmallVaultsReport> {
  const byId = new Map(corpus.map((c) => [c.id, c]));
  const missing = prompts.find((p) => !byId.has(p.conversation));
  if (missing)
    throw new VaultFailure(
      vaultError('input/invalid', `A prompt names the conversation "${missing.conversation}", which the corpus does not hold.`),
    );
  const sizes = options.sizes ?? DEFAULT_SMALL_SIZES;
  const bad = sizes.find((k) => !Number.isInteger(k) || k < 1 || k > corpus.length);
  if (bad !== undefined)
    throw new VaultFailure(vaultError('input/invalid', `A vault of ${bad} chats cannot be drawn from ${corpus.length}.`));
  const every = Math.max(1, options.offtopicEvery ?? 10);
  const chats = [...new Set(prompts.map((p) => p.conversation))];
  const bySize: Record<string, SmallSizeReport> = {};
  for (const size of sizes) {
    const rng = seededRng((options.seed ?? 7) + size);
    const sets = new Map<string, [number, number]>();
    const falseRefusals: SmallSizeReport['falseRefusals'] = [];
    const offTopicAnswered: SmallSizeReport['offTopicAnswered'] = [];
    let offAsks = 0;
    let offRefused = 0;
    for (const [i, chat] of chats.entries()) {
      // The chat and size - 1 others, drawn by a seeded shuffle (Fisher-Yates) of the rest of the corpus.
      const others = corpus.filter((c) => c.id !== chat);
      for (let j = others.length - 1; j > 0; j--) {
        const r = Math.floor(rng() * (j + 1));
        [others[j], others[r]] = [others[r]!, others[j]!];
      }
      const { vault } = await corpusVault([byId.get(chat)!, ...others.slice(0, size - 1)]);
      await withIndexedVault(vault, options.vectors ?? 'hnsw', async (index) => {
        const recaller = index.recaller();
        let lastItems = 0;
        const refuses = async (prompt: string): Promise<boolean> => {
          const answer = await recaller.answer({ prompt }, { writeBack: false });
          if (!answer.ok) throw new VaultFailure(answer.error);
          lastItems = answer.value.result.items.length;
          return answer.value.result.holdsNothing !== null;
        };
        for (const p of prompts.filter((x) => x.conversation === chat)) {
          const refused = await refuses(p.prompt);
          const [asks, n] = sets.get(p.set) ?? [0, 0];
          sets.set(p.set, [asks + 1, n + (refused ? 1 : 0)]);
          if (refused) falseRefusals.push({ conversation: chat, prompt: p.prompt });
        }
        if (i % every === 0) {
          for (const prompt of offtopic) {
            offAsks++;
            if (await refuses(prompt)) offRefused++;
            else offTopicAnswered.push({ conversation: chat, prompt, items: lastItems });
          }
        }
      });
    }
    const onAsks = [...sets.values()].reduce((n, [a]) => n + a, 0);
    bySize[String(size)] = {
      vaults: chats.length,
      onTopic: {
        ...count(onAsks, falseRefusals.length),
        bySet: Object.fromEntries([...sets].sort(([a], [b]) => (a < b ? -1 : 1)).map(([set, [a, n]]) => [set, count(a, n)])),
      },
      offTopic: count(offAsks, offRefused),
      falseRefusals,
      offTopicAnswered,
    };
    options.onProgress?.(`asked ${chats.length} vaults of ${size} chat${size === 1 ? '' : 's'}`);
  }
  return { corpus: corpus.length, prompts: prompts.length, offtopicPrompts: offtopic.length, offtopicEvery: every, bySize };
}
