/**
 * Context-budget assembly. Each selected item gets a budget tier: Core (never shortened), Structural
 * (cut to its first level before any Core item is touched), Peripheral (cut first). While the
 * rendered package is over budget, the next cut is, in order:
 *   1. drop the lowest-ranked Peripheral item;
 *   2. cut the lowest-ranked uncut Structural item to its first level;
 *   3. drop the lowest-ranked Structural item;
 *   4. drop the lowest-ranked Core item (whole: a Core item is never shortened).
 * The package order is deterministic: Core, Structural, Peripheral, each by rank. Tokens are counted
 * on the rendered text, so the package never exceeds the budget.
 */
import { firstLevel, hasDeeperLevels } from './first-level';
import { packageBudget } from './model-windows';
import {
  renderEntry,
  renderFooter,
  renderHeader,
  renderPackage,
  SEPARATOR,
  type BudgetTier,
  type PackageEntry,
  type PackageFormat,
} from './package-format';
import type { CandidateRecord } from './ports';
import { countTokensRemembered as defaultCounter, type TokenCounter } from '../text/token-count';
import { utf8Length } from '../text/utf8';

/** What happens to a line the read-time sanitizer flags as possible prompt injection. */
export type FlaggedLinePolicy = 'drop' | 'quote';

/** Where a text comes from (named in the marker of a dropped line) and what to do with flagged lines. */
export interface SanitizeContext {
  source: string;
  flaggedLines: FlaggedLinePolicy;
}

/** Read-time sanitizer (src/lib/core/safety/sanitize-read.ts through the worker's adapter). */
export type Sanitizer = (text: string, context: SanitizeContext) => { text: string; flags: string[] };

/** The top items by rank are Core: what the person asked for most directly. */
export const DEFAULT_CORE_COUNT = 3;

export interface BudgetCut {
  ref: string;
  budgetTier: BudgetTier;
  action: 'dropped' | 'cut-to-first-level';
  tokensSaved: number;
}

export interface AssembledPackage {
  format: PackageFormat;
  text: string;
  tokens: number;
  budget: number;
  window: number;
  /** Entries in package order. */
  entries: PackageEntry[];
  cuts: BudgetCut[];
}

export interface AssembleOptions {
  window: number;
  fraction?: number;
  format: PackageFormat;
  sanitize: Sanitizer;
  countTokens?: TokenCounter;
  coreCount?: number;
  /** Per-record overrides from the screen (e.g. a pinned item made Core). */
  tierOverrides?: Readonly<Record<string, BudgetTier>>;
  /** Flagged lines are dropped (default) or kept quoted. */
  flaggedLines?: FlaggedLinePolicy;
}

const isInjection = (flag: string) => flag.startsWith('injection:');

/** Core: pinned or in the top `coreCount`; Structural: a structural unit (summary, thread map, community) or a text with deeper levels. */
export function assignBudgetTier(
  record: Pick<CandidateRecord, 'pinned' | 'text'> & Partial<Pick<CandidateRecord, 'kind'>>,
  rank: number,
  coreCount: number,
): BudgetTier {
  if (record.pinned || rank < coreCount) return 'core';
  return record.kind === 'structure' || hasDeeperLevels(record.text) ? 'structural' : 'peripheral';
}

const TIER_ORDER: Record<BudgetTier, number> = { core: 0, structural: 1, peripheral: 2 };

interface Slot {
  entry: PackageEntry;
  firstLevel: string | null;
  included: boolean;
  tokens: number;
}

function prepare(items: readonly { record: CandidateRecord }[], options: AssembleOptions): PackageEntry[] {
  const coreCount = options.coreCount ?? DEFAULT_CORE_COUNT;
  const flaggedLines = options.flaggedLines ?? 'drop';
  const entries = items.map(({ record }, rank): PackageEntry => {
    const title = record.sourceTitle === null ? null : options.sanitize(record.sourceTitle, { source: record.id, flaggedLines });
    // A dropped line's marker names the source by its title, unless the title itself was flagged.
    const source = title && !title.flags.some(isInjection) ? `${title.text} (${record.tier})` : `${record.tier} ${record.id}`;
    const text = options.sanitize(record.text, { source, flaggedLines });
    const budgetTier =
      options.tierOverrides?.[record.id] ??
      assignBudgetTier({ pinned: record.pinned, text: text.text, kind: record.kind }, rank, coreCount);
    const flags = [...new Set([...text.flags, ...(title?.flags ?? [])])].sort();
    return {
      ref: record.id,
      rank,
      budgetTier,
      provenance: record.tier,
      sourceTitle: title?.text ?? null,
      date: record.date,
      text: text.text,
      cut: 'none',
      flags,
    };
  });
  return entries.sort((a, b) => TIER_ORDER[a.budgetTier] - TIER_ORDER[b.budgetTier] || a.rank - b.rank);
}

/** The next cut in the documented order, applied to `slots`; false when nothing is left to cut. */
function cutNext(slots: Slot[], format: PackageFormat, count: TokenCounter, cuts: BudgetCut[]): boolean {
  const lowest = (pred: (s: Slot) => boolean) => slots.filter(pred).sort((a, b) => b.entry.rank - a.entry.rank)[0];
  const drop = (slot: Slot) => {
    slot.included = false;
    cuts.push({ ref: slot.entry.ref, budgetTier: slot.entry.budgetTier, action: 'dropped', tokensSaved: slot.tokens });
    return true;
  };
  const peripheral = lowest((s) => s.included && s.entry.budgetTier === 'peripheral');
  if (peripheral) return drop(peripheral);
  const uncut = lowest((s) => s.included && s.entry.budgetTier === 'structural' && s.entry.cut === 'none' && s.firstLevel !== null);
  if (uncut) {
    uncut.entry = { ...uncut.entry, text: uncut.firstLevel!, cut: 'first-level' };
    const tokens = count(SEPARATOR + renderEntry(format, uncut.entry));
    cuts.push({ ref: uncut.entry.ref, budgetTier: 'structural', action: 'cut-to-first-level', tokensSaved: uncut.tokens - tokens });
    uncut.tokens = tokens;
    return true;
  }
  const structural = lowest((s) => s.included && s.entry.budgetTier === 'structural');
  if (structural) return drop(structural);
  const core = lowest((s) => s.included && s.entry.budgetTier === 'core');
  return core ? drop(core) : false;
}

export function assemblePackage(items: readonly { record: CandidateRecord }[], options: AssembleOptions): AssembledPackage {
  const count = options.countTokens ?? defaultCounter;
  const { format } = options;
  const budget = packageBudget(options.window, options.fraction);
  const prepared = prepare(items, options);
  // A token is at least one byte of UTF-8, so a package whose pieces (as counted below: the frame
  // with one more separator) hold no more bytes than the budget fits whole: no piece needs
  // counting, only the package once. Most packages are far below a model's window.
  const whole = renderPackage(format, prepared);
  if (whole !== '' && utf8Length(whole, budget) + SEPARATOR.length <= budget) {
    return { format, text: whole, tokens: count(whole), budget, window: options.window, entries: prepared, cuts: [] };
  }
  const slots: Slot[] = prepared.map((entry) => ({
    entry,
    firstLevel: entry.budgetTier === 'structural' && hasDeeperLevels(entry.text) ? firstLevel(entry.text) : null,
    included: true,
    tokens: count(SEPARATOR + renderEntry(format, entry)),
  }));
  const frame = count(renderHeader(format)) + count(SEPARATOR + renderFooter(format) + '\n');
  const cuts: BudgetCut[] = [];
  const estimate = () => frame + slots.reduce((sum, s) => sum + (s.included ? s.tokens : 0), 0);
  while (estimate() > budget && cutNext(slots, format, count, cuts));
  // BPE merges across part boundaries can make the whole differ from the sum of its parts: verify.
  let text = renderPackage(
    format,
    slots.filter((s) => s.included).map((s) => s.entry),
  );
  let tokens = count(text);
  while (tokens > budget && cutNext(slots, format, count, cuts)) {
    text = renderPackage(
      format,
      slots.filter((s) => s.included).map((s) => s.entry),
    );
    tokens = count(text);
  }
  if (tokens > budget) {
    text = '';
    tokens = 0;
  }
  const entries = text === '' ? [] : slots.filter((s) => s.included).map((s) => s.entry);
  return { format, text, tokens, budget, window: options.window, entries, cuts };
}
