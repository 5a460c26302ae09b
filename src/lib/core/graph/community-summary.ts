/**
 * An entity community's summary by the LLM (issue 12's GLOBAL view: "summarised by the LLM when
 * present, extractively otherwise"). The extractive summary is `communityUnit`'s own (the names, the
 * conversations, the lines naming the most of them; structure-units.ts); this one asks the model what
 * the group is about, from the same material: the entities' names and the lines of the community's
 * best documents. A summary belongs to a community's membership (`communitySignature`): when the
 * group changes, the stored summary no longer applies and the extractive one serves until the model
 * writes a new one.
 */
import type { Llm } from '../api/llm';
import { isVaultError, toVaultError, vaultError, type VaultError } from '../errors';
import { stableHash } from '../import/stable-id';
import { summaryJsonSchema, summaryOutput } from '../extract/schema';
import type { EntityCommunity } from './communities';

/** Words an LLM community summary may have. */
export const COMMUNITY_SUMMARY_WORDS = { min: 12, max: 90 } as const;
/** Documents whose text the model reads, at most (the community's best first). */
export const COMMUNITY_SUMMARY_DOCUMENTS = 8;
/** Words of one document the model reads, at most. */
const DOCUMENT_WORDS = 60;
/** Entity names the model is told, at most (the most mentioned first). */
const NAMES_SENT = 20;

/**
 * What a community's summary is written from: its members and the documents the model reads (the
 * community's best COMMUNITY_SUMMARY_DOCUMENTS). Another member, or a document deleted or newly among
 * the best, gives another signature, and the stored summary no longer applies.
 */
export function communitySignature(community: Pick<EntityCommunity, 'entities' | 'docIds'>): string {
  const members = community.entities.map((e) => e.id).sort();
  return stableHash([...members, '', ...community.docIds.slice(0, COMMUNITY_SUMMARY_DOCUMENTS)].join('\n'));
}

/** One document of a community as the model reads it. */
export interface CommunitySummaryDocument {
  text: string;
  title: string | null;
}

export type CommunitySummaryResult = { ok: true; text: string; words: number; llmId: string } | { ok: false; error: VaultError };

const words = (text: string): string[] => text.replace(/\s+/gu, ' ').trim().split(' ').filter(Boolean);

/** The prompt's material: the names, then each document's opening words under its title. */
export function communityMaterial(community: Pick<EntityCommunity, 'entities'>, documents: readonly CommunitySummaryDocument[]): string {
  const names = community.entities.slice(0, NAMES_SENT).map((e) => e.name);
  const more = community.entities.length > NAMES_SENT ? ` (and ${community.entities.length - NAMES_SENT} more)` : '';
  const lines = documents.slice(0, COMMUNITY_SUMMARY_DOCUMENTS).map((d, i) => {
    const w = words(d.text);
    const text = w.length > DOCUMENT_WORDS ? `${w.slice(0, DOCUMENT_WORDS).join(' ')} …` : w.join(' ');
    return `[${i + 1}] (${d.title ?? 'untitled'}) ${text}`;
  });
  return [`Names: ${names.join(', ')}${more}`, 'Passages that name them:', ...lines].join('\n');
}

/**
 * Asks `llm` for one community's summary. Never throws for a bad answer: an answer that is not the
 * schema's JSON, or whose length is outside COMMUNITY_SUMMARY_WORDS, is `ok: false` with the reason
 * (the extractive summary stays). A cancelled call throws (the job stops).
 */
export async function summarizeCommunity(
  community: Pick<EntityCommunity, 'entities'>,
  documents: readonly CommunitySummaryDocument[],
  llm: Llm,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<CommunitySummaryResult> {
  const { min, max } = COMMUNITY_SUMMARY_WORDS;
  try {
    const answer = await llm.complete(
      [
        {
          role: 'system',
          content: `These names occur together in a person's saved conversations. In ${min}-${max} words of plain prose, say who or what they are and what connects them, using only the passages. Answer with JSON only: {"summary": "..."}.`,
        },
        { role: 'user', content: communityMaterial(community, documents) },
      ],
      { temperature: 0, jsonSchema: summaryJsonSchema, maxTokens: 300, signal: options.signal, timeoutMs: options.timeoutMs },
    );
    let json: unknown;
    try {
      json = JSON.parse(answer);
    } catch {
      return { ok: false, error: vaultError('llm/invalid-output', 'The community summary answer is not JSON.') };
    }
    const parsed = summaryOutput.safeParse(json);
    if (!parsed.success)
      return { ok: false, error: vaultError('llm/invalid-output', 'The community summary answer does not match its schema.') };
    const text = parsed.data.summary.replace(/\s+/gu, ' ').trim();
    const n = words(text).length;
    if (n < min || n > max) {
      return { ok: false, error: vaultError('llm/invalid-output', `The model's community summary has ${n} words, outside ${min}-${max}.`) };
    }
    return { ok: true, text, words: n, llmId: llm.id };
  } catch (thrown) {
    const error = isVaultError(thrown) ? thrown : toVaultError(thrown, 'llm/invalid-output');
    if (error.code === 'llm/cancelled') throw thrown;
    return { ok: false, error };
  }
}
