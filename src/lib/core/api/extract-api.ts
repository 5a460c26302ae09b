/**
 * Extraction as a background job: after an import publishes a conversation, an
 * `extract.conversation` job turns it into provisional candidate notes (the Inbox), with a session
 * summary, validator flags, quality-gate flags and the decision stage's proposal on each. The index
 * worker's job runner runs it (src/lib/services/extraction/extract-job.ts): it reaches the store and
 * the index's neighbour search, and the language model lent to the index worker, if any.
 */
import type { VaultError } from '../errors';
import type { JobSpec } from './jobs';

export const EXTRACT_JOB = 'extract.conversation';

export interface ExtractJobPayload {
  conversationId: string;
}

/** One job per conversation; a pending or running one is not queued twice. After the index jobs (index.update 10, index.embed 50): recall first, then candidates. */
export function extractJob(conversationId: string): JobSpec {
  const payload: ExtractJobPayload = { conversationId };
  return { type: EXTRACT_JOB, payload, priority: 60, maxAttempts: 5, dedupeKey: `${EXTRACT_JOB}:${conversationId}` };
}

/** What a finished extraction job reports (stored as the job's result; the Inbox says which extractor ran). */
export interface ExtractJobResult {
  conversationId: string;
  /** Distinct extractors that ran, in order of first use. */
  extractors: ('llm' | 'rule-based')[];
  llmId: string | null;
  windows: number;
  /** Windows where the LLM did not produce the units, and why (the rule-based extractor ran there). */
  fallbacks: { window: number; reason: VaultError }[];
  candidates: number;
  /** Units already present (same conversation, same text): not written again. */
  existing: number;
  rejected: number;
  summary: { words: number; method: 'llm' | 'extractive'; fallbackReason: VaultError | null } | null;
  /** With a model and hints on: how many new units got the model's questions, and why the rest did not; null otherwise. */
  hints?: { units: number; fallbackReason: VaultError | null } | null;
  /** Never-reviewed candidates of an older extractor version: proposed again (restamped) or no longer (removed). */
  replaced?: { restamped: number; removed: number };
}

/** A session summary as stored (table `summaries`; a vault file carries it as the setting `extract.summary:<conversationId>`). */
export interface StoredSummary {
  conversationId: string;
  text: string;
  words: number;
  method: 'llm' | 'extractive';
  llmId: string | null;
  at: number;
}
