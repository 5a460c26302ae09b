/**
 * `eval offtopic`: how often the app's read path answers "the vault holds nothing on this" to prompts
 * on subjects a vault does not hold. Each vault is filled, indexed by the index service (the app's
 * chunks, BM25 recipe and vector index) and asked every prompt through the recall service with the
 * app's default settings; a prompt is refused when the answer carries `holdsNothing` (the funnel's
 * model-free relevance stage, or any earlier empty stage). Shared by the CLI and the regression test.
 */
import { err, ok, vaultError, VaultFailure, type Result } from '../../core/errors';
import type { LocomoSample } from '../../core/recall/locomo-data';
import type { HoldsNothing } from '../../core/recall/types';
import type { Vault } from '../../store/vault';
import type { VectorSearchMode } from '../index/model-index';
import { withIndexedVault } from './eval-vault';
import { importSample } from './locomo-vault';

/** A vault to ask: `open` returns a fresh vault already filled; the run deletes it when done. */
export interface OfftopicVault {
  name: string;
  open(): Promise<Vault>;
  /** The persons who speak in it by name: a prompt holding `{person}` is asked once for each (none: not asked). */
  persons?: readonly string[];
}

/** The placeholder a prompt uses for a person of the vault. */
export const PERSON = '{person}';

/** The asks of one vault: each prompt, a prompt naming `{person}` once per person of the vault. */
export function asksOf(prompts: readonly string[], persons: readonly string[] = []): string[] {
  return prompts.flatMap((p) => (p.includes(PERSON) ? persons.map((person) => p.replaceAll(PERSON, person)) : [p]));
}

export interface OfftopicVaultReport {
  asks: number;
  refused: number;
  refusedRate: number;
}

export interface OfftopicReport {
  prompts: number;
  asks: number;
  refusedRate: number;
  byVault: Record<string, OfftopicVaultReport>;
  /** Every ask the vault answered with items: the vault, the prompt and how many items it gave. */
  notRefused: { vault: string; prompt: string; items: number }[];
  /** The refusals by the funnel stage that came out empty (relevance is the model-free stage). */
  refusedAt: Partial<Record<HoldsNothing['emptyAt'], number>>;
}

export interface OfftopicRunOptions {
  vectors?: VectorSearchMode;
  /** Called after each vault (progress). */
  onVault?: (name: string, done: number, total: number) => void;
}

/** The prompt file: `{ "prompts": ["...", ...] }` (other keys, such as "about", are ignored). */
export function parseOfftopicPrompts(data: unknown): Result<string[]> {
  const prompts = (data as { prompts?: unknown } | null)?.prompts;
  if (typeof data !== 'object' || data === null || !Array.isArray(prompts)) {
    return err(vaultError('input/invalid', 'The prompt file is not { "prompts": ["...", ...] }.'));
  }
  const bad = prompts.findIndex((p) => typeof p !== 'string' || p.trim() === '');
  if (bad >= 0) return err(vaultError('input/invalid', `Prompt ${bad + 1} of the prompt file is not a non-empty string.`));
  if (prompts.length === 0) return err(vaultError('input/invalid', 'The prompt file holds no prompts.'));
  return ok(prompts as string[]);
}

/** One vault per LoCoMo sample, through the product's importer (as `eval locomo` builds them). */
export function locomoVaults(samples: readonly LocomoSample[]): OfftopicVault[] {
  return samples.map((sample) => ({
    name: sample.sample_id,
    open: async () => (await importSample(sample)).vault,
    persons: [sample.conversation.speaker_a, sample.conversation.speaker_b].filter((p): p is string => typeof p === 'string'),
  }));
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

export async function runOfftopic(
  vaults: readonly OfftopicVault[],
  prompts: readonly string[],
  options: OfftopicRunOptions = {},
): Promise<OfftopicReport> {
  const byVault: Record<string, OfftopicVaultReport> = {};
  const notRefused: OfftopicReport['notRefused'] = [];
  const refusedAt: OfftopicReport['refusedAt'] = {};
  let done = 0;
  let asks = 0;
  for (const source of vaults) {
    if (byVault[source.name]) throw new VaultFailure(vaultError('input/invalid', `Two vaults are named ${source.name}.`));
    const asked = asksOf(prompts, source.persons);
    asks += asked.length;
    if (asked.length === 0) {
      options.onVault?.(source.name, ++done, vaults.length);
      continue;
    }
    const vault = await source.open();
    await withIndexedVault(vault, options.vectors ?? 'hnsw', async (index) => {
      const recaller = index.recaller();
      let refused = 0;
      for (const prompt of asked) {
        const answer = await recaller.answer({ prompt }, { writeBack: false });
        if (!answer.ok) throw new VaultFailure(answer.error);
        const empty = answer.value.result.holdsNothing;
        if (empty) {
          refused++;
          refusedAt[empty.emptyAt] = (refusedAt[empty.emptyAt] ?? 0) + 1;
        } else notRefused.push({ vault: source.name, prompt, items: answer.value.result.items.length });
      }
      byVault[source.name] = { asks: asked.length, refused, refusedRate: rate(refused, asked.length) };
    });
    options.onVault?.(source.name, ++done, vaults.length);
  }
  const refused = Object.values(byVault).reduce((n, v) => n + v.refused, 0);
  return { prompts: prompts.length, asks, refusedRate: rate(refused, asks), byVault, notRefused, refusedAt };
}
