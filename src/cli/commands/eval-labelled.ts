import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import type { Llm } from '../../lib/core/api/llm';
import { extractConversation } from '../../lib/core/extract/driver';
import {
  categoryMatches,
  extractLabelled,
  scoreLabelled,
  unitTerms,
  type ConversationExtractor,
  type LabelledReport,
  type ScoredConversation,
} from '../../lib/core/extract/eval-labelled';
import { parseLabelledConversation, type LabelledConversation } from '../../lib/core/extract/labelled-corpus';
import { CATEGORIES } from '../../lib/core/extract/units';
import { UsageError, type CommandResult } from '../command';

/**
 * `eval extraction --labelled DIR [--errors [--errors-heldout]] [--json]`: the extractor against the
 * labelled corpus (tests/fixtures/extraction): every `*.json` under DIR, one conversation each. A
 * file's split is its folder relative to DIR; with several splits the report gives each beside the
 * whole. `--errors` lists the per-unit errors of every split but `heldout` (HELDOUT_SPLIT), whose
 * errors are not to be read while rules are written; `--errors-heldout` lists them too.
 */
export const EVAL_LABELLED_USAGE =
  'eval extraction --labelled <dir> [--errors [--errors-heldout]] [--json] [--llm-endpoint http://127.0.0.1:PORT [--model NAME]]';

/** The split whose per-unit errors `--errors` leaves out (tests/fixtures/extraction/README.md). */
export const HELDOUT_SPLIT = 'heldout';

/** How the model fared when one was given: windows it answered, windows the rules took over (and why). */
export interface LlmRunSummary {
  id: string;
  windows: number;
  llmWindows: number;
  fallbackWindows: number;
  /** Error code -> windows that fell back for it. */
  fallbackReasons: Record<string, number>;
}

export interface LabelledEvalJson extends LabelledReport {
  dir: string;
  llm?: LlmRunSummary;
  splits?: Record<string, LabelledReport>;
  errors?: UnitError[];
  /** Splits whose per-unit errors `errors` leaves out (the held-out split unless asked for). */
  errorsLeftOut?: string[];
}

interface UnitError {
  split: string;
  conversation: string;
  turn: string;
  kind: 'missed' | 'spurious';
  category: string;
  text: string;
  /** For a missed unit: the closest predicted unit on the same turn, if any. */
  closest?: { category: string; text: string };
}

async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return jsonFiles(path);
      return e.isFile() && e.name.endsWith('.json') ? [path] : [];
    }),
  );
  return nested.flat().sort();
}

export async function readLabelledCorpus(dir: string): Promise<{ split: string; conversation: LabelledConversation }[]> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new UsageError(`${dir} is not a folder of labelled conversations.`);
  const files = await jsonFiles(dir);
  if (files.length === 0) throw new VaultFailure(vaultError('input/invalid', `${dir} holds no .json conversation files.`));
  return Promise.all(
    files.map(async (file) => {
      let data: unknown;
      try {
        data = JSON.parse(await readFile(file, 'utf8'));
      } catch (thrown) {
        throw new VaultFailure(vaultError('input/invalid', `${file}: not JSON (${(thrown as Error).message}).`));
      }
      const parsed = parseLabelledConversation(data, file);
      if (!parsed.ok) throw new VaultFailure(parsed.error);
      return { split: relative(dir, dirname(file)) || '.', conversation: parsed.value };
    }),
  );
}

function unitErrors(scored: readonly ScoredConversation[]): UnitError[] {
  const out: UnitError[] = [];
  for (const s of scored) {
    const matches = categoryMatches(s.gold, s.predicted);
    const matchedGold = new Set(matches.map((m) => m.gold));
    const matchedPredicted = new Set(matches.map((m) => m.predicted));
    const where = { split: s.split, conversation: s.conversation.id };
    s.gold.forEach((g, i) => {
      if (matchedGold.has(i)) return;
      const terms = unitTerms(g.text).terms;
      const closest = s.predicted
        .filter((p) => p.sourceMessageIds.includes(g.turnId))
        .map((p) => ({ p, n: [...unitTerms(p.text).terms].filter((t) => terms.has(t)).length }))
        .sort((a, b) => b.n - a.n)[0];
      const near = closest && closest.n > 0 ? { closest: { category: closest.p.category, text: closest.p.text } } : {};
      out.push({ ...where, turn: g.turnId, kind: 'missed', category: g.category, text: g.text, ...near });
    });
    s.predicted.forEach((p, j) => {
      if (!matchedPredicted.has(j))
        out.push({ ...where, turn: p.sourceMessageIds.join(','), kind: 'spurious', category: p.category, text: p.text });
    });
  }
  return out;
}

const pct = (x: number): string => x.toFixed(3);

function reportLines(r: LabelledReport, title: string): string[] {
  return [
    `${title}: ${r.conversations} conversations, ${r.turns} turns, ${r.goldUnits} gold units, ${r.predictedUnits} predicted (${r.unitsPerTurn.predicted} per turn; gold ${r.unitsPerTurn.gold})`,
    `  ${'category'.padEnd(24)} ${'gold'.padStart(5)} ${'pred'.padStart(5)} ${'match'.padStart(5)}   P      R      F1`,
    ...CATEGORIES.map((c) => {
      const s = r.byCategory[c];
      return `  ${c.padEnd(24)} ${String(s.gold).padStart(5)} ${String(s.predicted).padStart(5)} ${String(s.matched).padStart(5)}   ${pct(s.precision)}  ${pct(s.recall)}  ${pct(s.f1)}`;
    }),
    `  macro-F1 ${pct(r.macroF1)}; detection (any category) P ${pct(r.detection.precision)} R ${pct(r.detection.recall)} F1 ${pct(r.detection.f1)}`,
    `  Facts share: gold ${pct(r.factShare.gold)}, predicted ${pct(r.factShare.predicted)}; Decisions citing an assistant turn: ${r.decisionsCitingAssistant}`,
    `  macro-F1 by match threshold: ${r.curve.map((c) => `${c.threshold}: ${pct(c.macroF1)}`).join(', ')}`,
  ];
}

/**
 * The model's extractor, as the app runs it (extract/driver.ts: a window the model fails falls back
 * to the rules), tallying which windows the model answered so the report can say so.
 */
function llmExtractor(llm: Llm, timeoutMs: number | undefined): { extract: ConversationExtractor; summary: LlmRunSummary } {
  const summary: LlmRunSummary = { id: llm.id, windows: 0, llmWindows: 0, fallbackWindows: 0, fallbackReasons: {} };
  const extract: ConversationExtractor = async (messages) => {
    const run = await extractConversation(messages, { llm, timeoutMs });
    for (const w of run.windows) {
      summary.windows += 1;
      if (w.extractor === 'llm') summary.llmWindows += 1;
      else {
        summary.fallbackWindows += 1;
        const code = w.fallbackReason?.code ?? 'unknown';
        summary.fallbackReasons[code] = (summary.fallbackReasons[code] ?? 0) + 1;
      }
    }
    return run.units;
  };
  return { extract, summary };
}

export async function runEvalLabelled(
  dir: string,
  options: {
    errors: boolean;
    /** With `errors`: the held-out split's errors as well. */
    heldoutErrors?: boolean;
    extractor?: ConversationExtractor;
    name?: string;
    llm?: Llm | null;
    timeoutMs?: number;
  },
): Promise<CommandResult> {
  const corpus = await readLabelledCorpus(dir);
  const viaLlm = options.llm ? llmExtractor(options.llm, options.timeoutMs) : null;
  const extract: ConversationExtractor =
    viaLlm?.extract ?? options.extractor ?? (async (messages) => (await extractConversation(messages)).units);
  const name = viaLlm ? `llm:${viaLlm.summary.id}` : (options.name ?? 'rule-based');
  const scored = await extractLabelled(corpus, extract);
  const splitNames = [...new Set(scored.map((s) => s.split))];
  const json: LabelledEvalJson = { dir, ...scoreLabelled(scored, name), ...(viaLlm ? { llm: viaLlm.summary } : {}) };
  if (splitNames.length > 1) {
    json.splits = Object.fromEntries(
      splitNames.map((split) => [
        split,
        scoreLabelled(
          scored.filter((s) => s.split === split),
          name,
        ),
      ]),
    );
  }
  const withheld = options.errors && !options.heldoutErrors && splitNames.includes(HELDOUT_SPLIT);
  if (options.errors) json.errors = unitErrors(withheld ? scored.filter((s) => s.split !== HELDOUT_SPLIT) : scored);
  if (withheld) json.errorsLeftOut = [HELDOUT_SPLIT];
  const lines = [`Extractor: ${name}; corpus ${dir}`];
  if (json.llm) {
    const reasons = Object.entries(json.llm.fallbackReasons).map(([code, n]) => `${code} ${n}`);
    lines.push(
      `Model ${json.llm.id}: answered ${json.llm.llmWindows} of ${json.llm.windows} windows; the rules took ${json.llm.fallbackWindows}${reasons.length ? ` (${reasons.join(', ')})` : ''}`,
    );
  }
  lines.push(...reportLines(json, 'All'));
  for (const [split, r] of Object.entries(json.splits ?? {})) lines.push(...reportLines(r, `Split ${split}`));
  for (const e of json.errors ?? []) {
    lines.push(
      `  ${e.kind.padEnd(8)} ${e.conversation}/${e.turn} [${e.category}] ${e.text}${e.closest ? `  (closest: [${e.closest.category}] ${e.closest.text})` : ''}`,
    );
  }
  if (withheld) lines.push(`Per-unit errors of the ${HELDOUT_SPLIT} split are left out (--errors-heldout lists them).`);
  lines.push(`Rule: ${json.rule}`);
  return { json, text: lines.join('\n') };
}
