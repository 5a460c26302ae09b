import { Yielder } from '../jobs/yield';
import type { Llm } from '../api/llm';
import { isVaultError, toVaultError, VaultFailure, type VaultError } from '../errors';
import type { Role } from '../records';
import { hashBasis } from '../text/normalize';
import { applyWriteSafety } from '../safety/write-safety';
import { parseExtractionOutput } from './parse-output';
import { buildExtractionPrompt, citableLabels } from './prompt';
import { ruleBasedUnits, type Categorizer } from './rule-based';
import { extractionJsonSchema } from './schema';
import type { CandidateUnit, ExtractionMessage, RawUnit, RejectedUnit } from './units';
import { validateUnits } from './validate';
import { loadTokenCounter } from '../text/token-count';
import { buildWindows, type ExtractionWindow, type WindowOptions } from './windows';

/**
 * Runs extraction over a conversation, window by window. With an `Llm` each window goes to the
 * model; any failure of that window (error, timeout, invalid output) falls back to the rule-based
 * extractor for that window, and the report says which extractor ran where and why. After
 * `maxConsecutiveLlmFailures` failures in a row (or one `llm/unavailable`) the model is not asked
 * again in this run. Cancellation is not a failure: it stops the run.
 */
export type ExtractorName = 'llm' | 'rule-based';

export interface WindowReport {
  index: number;
  messageIds: string[];
  extractor: ExtractorName;
  llmId: string | null;
  /** Why the LLM did not produce this window, when it did not. */
  fallbackReason: VaultError | null;
  proposed: number;
  accepted: number;
  rejected: number;
  passedUnchanged: number;
}

export interface ExtractionRun {
  units: CandidateUnit[];
  rejected: RejectedUnit[];
  windows: WindowReport[];
  /** Distinct extractors that ran, in order of first use. */
  extractors: ExtractorName[];
}

export interface ExtractOptions extends WindowOptions {
  llm?: Llm | null;
  /** How the rule-based extractor files its segments (default: the rules' own category). */
  categorize?: Categorizer;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxOutputTokens?: number;
  maxConsecutiveLlmFailures?: number;
  onWindow?: (report: WindowReport, done: number, total: number) => void;
}

const NO_LLM: VaultError = {
  code: 'llm/unavailable',
  message: 'No language model is configured: the rule-based extractor ran.',
};

const isCancel = (error: VaultError, signal?: AbortSignal): boolean => error.code === 'llm/cancelled' || signal?.aborted === true;

async function llmUnits(llm: Llm, window: ExtractionWindow, options: ExtractOptions): Promise<RawUnit[]> {
  const answer = await llm.complete(buildExtractionPrompt(window), {
    temperature: 0,
    jsonSchema: extractionJsonSchema(citableLabels(window)),
    maxTokens: options.maxOutputTokens ?? 1536,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  });
  const parsed = parseExtractionOutput(answer, window);
  if (!parsed.ok) throw new VaultFailure(parsed.error);
  return parsed.value;
}

export async function extractConversation(messages: readonly ExtractionMessage[], options: ExtractOptions = {}): Promise<ExtractionRun> {
  // Windows are cut by token count (the counter loads on first use).
  if (!options.countTokens) await loadTokenCounter();
  const windows = buildWindows(messages, options);
  const maxFailures = options.maxConsecutiveLlmFailures ?? 2;
  let llm = options.llm ?? null;
  let failuresInRow = 0;
  let stopReason: VaultError | null = null;
  const reports: WindowReport[] = [];
  const units: CandidateUnit[] = [];
  const rejected: RejectedUnit[] = [];
  const seen = new Map<string, CandidateUnit>();

  // The rules need no await of their own: without these yields a long conversation held its
  // thread (the index worker's, where recall runs) for the whole extraction.
  const yielder = new Yielder();
  for (const window of windows) {
    await yielder.maybe();
    if (options.signal?.aborted) throw new VaultFailure({ code: 'llm/cancelled', message: 'Extraction was cancelled.' });
    let raw: RawUnit[] | null = null;
    let fallbackReason: VaultError | null = llm ? null : (stopReason ?? NO_LLM);
    if (llm) {
      try {
        raw = await llmUnits(llm, window, options);
        failuresInRow = 0;
      } catch (thrown) {
        const error = isVaultError(thrown) ? thrown : toVaultError(thrown, 'llm/failed');
        if (isCancel(error, options.signal)) throw new VaultFailure({ ...error, code: 'llm/cancelled' });
        fallbackReason = error;
        failuresInRow += 1;
        if (error.code === 'llm/unavailable' || failuresInRow >= maxFailures) {
          stopReason = { ...error, message: `${error.message} (the model is not asked again in this run)` };
          llm = null;
        }
      }
    }
    const extractor: ExtractorName = raw ? 'llm' : 'rule-based';
    const proposed = raw ?? ruleBasedUnits(window, messages, options.categorize);
    const citable = window.messages.filter((m) => !m.context);
    const roles = new Map<string, Role>(citable.map((m) => [m.id, m.role]));
    const result = validateUnits(proposed, { roles });
    for (const unit of result.accepted) {
      // Model output is untrusted text like any other: redacted and flagged before it can be stored.
      const safe = applyWriteSafety(unit.text);
      unit.text = safe.text;
      if (safe.flags.length > 0) unit.flags = safe.flags;
      const key = `${unit.category}|${hashBasis(unit.text)}`;
      const earlier = seen.get(key);
      if (earlier) {
        for (const id of unit.sourceMessageIds) if (!earlier.sourceMessageIds.includes(id)) earlier.sourceMessageIds.push(id);
        continue;
      }
      seen.set(key, unit);
      units.push(unit);
    }
    rejected.push(...result.rejected);
    const report: WindowReport = {
      index: window.index,
      messageIds: [...new Set(citable.map((m) => m.id))],
      extractor,
      llmId: extractor === 'llm' ? (options.llm?.id ?? null) : null,
      fallbackReason: extractor === 'rule-based' ? fallbackReason : null,
      proposed: proposed.length,
      accepted: result.accepted.length,
      rejected: result.rejected.length,
      passedUnchanged: result.passedUnchanged,
    };
    reports.push(report);
    options.onWindow?.(report, reports.length, windows.length);
  }
  const extractors = [...new Set(reports.map((r) => r.extractor))];
  return { units, rejected, windows: reports, extractors };
}
