/**
 * `eval questions`: what the hints (core/recall/hints.ts) do for the questions a person types weeks
 * later to look up one thing they settled in a chat ("Which neighbourhood did we settle on for the
 * hotel?"). The vault is `eval global`'s: every chat of the labelled extraction corpus imported,
 * extracted (rule-based), swept and indexed. Each prompt names its chat, the user turn that answers
 * it and the answer's words; it is asked through the recall service with the app's defaults (hints
 * off), then with the hints on (HINT_WEIGHT, or `--hints W`). An item holds the answer when it was drawn from that turn (a chunk of it, a
 * note extracted from it). Reported per pass:
 *   inPackage    the share of asks whose package holds the answer;
 *   atFive       the share whose first five items do;
 *   mrr          the mean reciprocal rank of the first item that holds it (0 when none does);
 *   refusedRate, meanPackageTokens.
 */
import { z } from 'zod';
import { parsePromptFile } from './prompt-file';
import { vaultError, VaultFailure, type Result } from '../../core/errors';
import type { LabelledConversation } from '../../core/extract/labelled-corpus';
import type { VectorSearchMode } from '../index/model-index';
import { withIndexedVault } from './eval-vault';
import { corpusVault } from './global-view';
import { allMessages } from '../../store/messages-store';

const promptSchema = z.object({
  conversation: z.string().min(1),
  turn: z.string().min(1),
  kind: z.string().min(1),
  prompt: z.string().trim().min(1),
  answer: z.string().trim().min(1),
});
export type QuestionPrompt = z.infer<typeof promptSchema>;

/** The prompt file: `{ "prompts": [{ "conversation", "turn", "kind", "prompt", "answer" }, ...] }`. */
export function parseQuestionPrompts(data: unknown): Result<QuestionPrompt[]> {
  return parsePromptFile(data, promptSchema, '{ "conversation", "turn", "kind", "prompt", "answer" }');
}

export interface QuestionMetrics {
  asks: number;
  inPackage: number;
  atFive: number;
  mrr: number;
  refusedRate: number;
  meanPackageTokens: number;
}

export interface QuestionReport {
  conversations: number;
  prompts: number;
  off: QuestionMetrics;
  on: QuestionMetrics;
  byKind: Record<string, { off: QuestionMetrics; on: QuestionMetrics }>;
  /** Ask by ask, whether the answer's first rank rose, fell or stayed with the hints on. */
  perAsk: { better: number; worse: number; same: number };
}

export interface QuestionRunOptions {
  vectors?: VectorSearchMode;
  /** Hint weight of the "on" pass (default: HINT_WEIGHT, the weight hints are searched at when asked for). */
  hints?: number;
  onProgress?: (what: string) => void;
}

interface Ask {
  kind: string;
  refused: boolean;
  /** 1-based rank of the first package item that holds the answer; null when none does. */
  rank: number | null;
  tokens: number;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function metrics(asks: readonly Ask[]): QuestionMetrics {
  const answered = asks.filter((a) => !a.refused);
  const share = (f: (a: Ask) => boolean) => (asks.length ? asks.filter(f).length / asks.length : 0);
  return {
    asks: asks.length,
    inPackage: share((a) => a.rank !== null),
    atFive: share((a) => a.rank !== null && a.rank <= 5),
    mrr: mean(asks.map((a) => (a.rank === null ? 0 : 1 / a.rank))),
    refusedRate: share((a) => a.refused),
    meanPackageTokens: mean(answered.map((a) => a.tokens)),
  };
}

export async function runQuestionEval(
  conversations: readonly LabelledConversation[],
  prompts: readonly QuestionPrompt[],
  options: QuestionRunOptions = {},
): Promise<QuestionReport> {
  const byId = new Map(conversations.map((c) => [c.id, c]));
  for (const p of prompts) {
    const turn = byId.get(p.conversation)?.turns.find((t) => t.id === p.turn);
    if (!turn)
      throw new VaultFailure(
        vaultError('input/invalid', `A prompt names the turn "${p.conversation}/${p.turn}", which the corpus does not hold.`),
      );
    if (!turn.text.includes(p.answer))
      throw new VaultFailure(vaultError('input/invalid', `The answer of "${p.prompt}" is not in the turn ${p.conversation}/${p.turn}.`));
  }
  const { vault } = await corpusVault(conversations, options.onProgress);
  return withIndexedVault(vault, options.vectors ?? 'hnsw', async (index) => {
    await index.service.hints.settled();
    const messages = await allMessages(vault.db);
    const messageOf = new Map(messages.map((m) => [m.externalId, m.id]));
    const recaller = index.recaller();
    const passes: Record<'off' | 'on', Ask[]> = { off: [], on: [] };
    for (const pass of ['off', 'on'] as const) {
      for (const p of prompts) {
        const target = messageOf.get(`${p.conversation}/${p.turn}`);
        const hints = pass === 'off' ? { hints: false } : { hints: options.hints ?? true };
        const answer = await recaller.answer({ prompt: p.prompt }, { writeBack: false, ...hints });
        if (!answer.ok) throw new VaultFailure(answer.error);
        const { result, package: pkg } = answer.value;
        const byRef = new Map(result.items.map((i) => [i.record.id, i.record]));
        const packed = pkg.entries.flatMap((e) => byRef.get(e.ref) ?? []);
        const at = packed.findIndex((r) => target !== undefined && r.messageIds.includes(target));
        passes[pass].push({
          kind: p.kind,
          refused: result.holdsNothing !== null,
          rank: at < 0 ? null : at + 1,
          tokens: pkg.entries.length ? pkg.tokens : 0,
        });
      }
      options.onProgress?.(`asked ${prompts.length} questions with the hints ${pass}`);
    }
    const perAsk = { better: 0, worse: 0, same: 0 };
    const reciprocal = (a: Ask) => (a.rank === null ? 0 : 1 / a.rank);
    passes.on.forEach((on, i) => {
      const d = reciprocal(on) - reciprocal(passes.off[i]!);
      perAsk[Math.abs(d) < 1e-9 ? 'same' : d > 0 ? 'better' : 'worse']++;
    });
    const kinds = [...new Set(prompts.map((p) => p.kind))].sort();
    return {
      conversations: conversations.length,
      prompts: prompts.length,
      off: metrics(passes.off),
      on: metrics(passes.on),
      byKind: Object.fromEntries(
        kinds.map((k) => [k, { off: metrics(passes.off.filter((a) => a.kind === k)), on: metrics(passes.on.filter((a) => a.kind === k)) }]),
      ),
      perAsk,
    };
  });
}
