/**
 * `eval offtopic [locomo.json] [--prompts FILE] [--samples N] [--exports DIR|none] [--json]`: the share
 * of off-topic prompts the app's read path answers with "the vault holds nothing on this", asked of one
 * vault per LoCoMo sample and of one vault of the chat-export samples (services/eval/offtopic.ts). A
 * prompt holding `{person}` is asked once per speaker of each LoCoMo vault
 * (tests/fixtures/recall/off-topic-named-prompts.json).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { vaultError, VaultFailure } from '../../lib/core/errors';
import { parseLocomo } from '../../lib/core/recall/locomo-data';
import {
  locomoVaults,
  parseOfftopicPrompts,
  PERSON,
  runOfftopic,
  type OfftopicReport,
  type OfftopicVault,
} from '../../lib/services/eval/offtopic';
import type { CommandResult } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from './args';
import { exportsVault } from './exports-vault';
import { loadHnswlibQuietly } from './hnswlib-node';

/** Found from this file, so any working directory works: the shared data sit beside the repository. */
export const DEFAULT_LOCOMO = fileURLToPath(new URL('../../../../shared/data/locomo/locomo-dev.json', import.meta.url));
export const DEFAULT_EXPORTS = fileURLToPath(new URL('../../../../shared/data/exports', import.meta.url));
export const DEFAULT_OFFTOPIC_PROMPTS = fileURLToPath(new URL('../../../tests/fixtures/recall/off-topic-prompts.json', import.meta.url));

export const EVAL_OFFTOPIC_USAGE = 'eval offtopic [<locomo.json>] [--prompts FILE] [--samples N] [--exports DIR|none] [--json]';

export async function readJson(file: string, what: string, hint = ''): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch((thrown: unknown) => {
    throw new VaultFailure(vaultError('input/invalid', `Cannot read the ${what} ${file}: ${(thrown as Error).message}${hint}`));
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (thrown) {
    throw new VaultFailure(vaultError('input/invalid', `The ${what} ${file} is not JSON: ${(thrown as Error).message}`));
  }
}

export async function readOfftopicPrompts(file: string): Promise<string[]> {
  const parsed = parseOfftopicPrompts(await readJson(file, 'prompt file'));
  if (!parsed.ok) throw new VaultFailure(vaultError('input/invalid', `${file}: ${parsed.error.message}`));
  return parsed.value;
}

async function readLocomoSamples(file: string, count: number | undefined) {
  const parsed = parseLocomo(await readJson(file, 'LoCoMo file', ' (LoCoMo lives in ../shared/data/locomo/, never in the repo).'));
  if (!parsed.ok) throw new VaultFailure(vaultError('input/invalid', `${file}: ${parsed.error.message}`));
  return count === undefined ? parsed.value : parsed.value.slice(0, count);
}

function countOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/u.test(value.trim()) || Number(value) <= 0)
    throw new UsageError('--samples takes a positive whole number (the first N samples).');
  return Number(value);
}

export async function runEvalOfftopic(argv: readonly string[]): Promise<CommandResult> {
  const { values, positionals } = parseCommandArgs(argv, {
    prompts: { type: 'string' },
    samples: { type: 'string' },
    exports: { type: 'string' },
  });
  if (positionals.length > 2) throw new UsageError(`One LoCoMo file at most (got ${positionals.slice(1).join(', ')}).`);
  const count = countOf(values.samples);
  const prompts = await readOfftopicPrompts(values.prompts ?? DEFAULT_OFFTOPIC_PROMPTS);
  const samples = await readLocomoSamples(positionals[1] ?? DEFAULT_LOCOMO, count);
  const vaults: OfftopicVault[] = locomoVaults(samples);
  const exportsDir = values.exports ?? DEFAULT_EXPORTS;
  if (exportsDir !== 'none') vaults.push(await exportsVault(exportsDir));
  await loadHnswlibQuietly();
  const started = performance.now();
  const report = await runOfftopic(vaults, prompts);
  const seconds = (performance.now() - started) / 1000;
  const settings = `${samples.length} LoCoMo samples${exportsDir === 'none' ? '' : ' and the exports vault'}; recall defaults (lexical embedder, HNSW); ${seconds.toFixed(1)} s`;
  return {
    json: report,
    text: formatOfftopicReport(
      report,
      settings,
      prompts.some((p) => p.includes(PERSON)),
    ),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** `named`: some prompt holds `{person}`, so a vault's asks are not one per prompt. */
export function formatOfftopicReport(r: OfftopicReport, settings: string, named = false): string {
  const vaults = Object.keys(r.byVault).length;
  const width = Math.max(8, ...Object.keys(r.byVault).map((n) => n.length));
  return [
    `Off-topic prompts answered "the vault holds nothing on this": ${pct(r.refusedRate)} of ${r.asks} asks (${
      named ? `${r.prompts} prompts, ${PERSON} asked once per speaker, ${vaults} vaults` : `${r.prompts} prompts x ${vaults} vaults`
    })`,
    `${'vault'.padEnd(width)}  asks  refused  refusedRate`,
    ...Object.entries(r.byVault).map(
      ([name, v]) =>
        `${name.padEnd(width)}  ${String(v.asks).padStart(4)}  ${String(v.refused).padStart(7)}  ${pct(v.refusedRate).padStart(11)}`,
    ),
    `Refused at: ${
      Object.entries(r.refusedAt)
        .map(([stage, n]) => `${stage} ${n}`)
        .join(', ') || 'none'
    }`,
    `Not refused (${r.notRefused.length}):`,
    ...r.notRefused.map((n) => `  ${n.vault.padEnd(width)} ${String(n.items).padStart(3)} items  ${JSON.stringify(n.prompt)}`),
    settings,
  ].join('\n');
}
