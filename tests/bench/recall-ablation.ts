/**
 * The before/after table of recall changes on LoCoMo, through the app's path (the index service and
 * the recall service, as `engram eval locomo` runs them). Each row is one set of settings; every
 * row reports the total, each category and each conversation (sample), because a change that helps
 * the total can hurt one conversation, and the held-out conversations are not here. Not a
 * benchmark module (nothing here is timed); run it by hand:
 *   npx tsx --import ./scripts/node-resolve.js tests/bench/recall-ablation.ts [locomo.json] > table.md
 * Evidence recall at 10 items / at 1,000 tokens.
 */
import '../../src/cli/node-env';
import { existsSync, readFileSync } from 'node:fs';
import type { EvalMode, LocomoReport } from '../../src/lib/core/recall/eval-locomo';
import { parseLocomo } from '../../src/lib/core/recall/locomo-data';
import { loadHnswlibQuietly } from '../../src/cli/recall/hnswlib-node';
import { runLocomo, type LocomoRunOptions } from '../../src/lib/services/eval/locomo';

interface Row {
  label: string;
  options: LocomoRunOptions;
}

/** Add a row per change (and per tried setting), in the order they were made. */
const ALL_ROWS: Row[] = [
  { label: 'app path, `eval locomo` defaults (recency off)', options: {} },
  { label: 'recency on (the setting the app ranks with)', options: { recency: true } },
  { label: '(tried) session titles "Session N" (no date in the title)', options: { titleOf: (n) => `Session ${n}` } },
  // Issue 12: each stage switched off alone from the defaults, and the settings tried.
  {
    label: 'issue 12 stages all off (wave-2 start)',
    options: { recall: { relevance: false, subject: false, dampening: false, graph: false, intentRouting: false } },
  },
  { label: 'relevance stage off', options: { recall: { relevance: false } } },
  { label: 'subject check off', options: { recall: { subject: false } } },
  { label: 'dampening off', options: { recall: { dampening: false } } },
  { label: 'hub dampening off', options: { recall: { dampening: { hub: false } } } },
  { label: 'resolution boost off', options: { recall: { dampening: { resolution: false } } } },
  { label: 'graph walk off', options: { recall: { graph: false } } },
  { label: '(tried) graph walk weight 0.3', options: { recall: { graph: 0.3 } } },
  { label: '(tried) graph walk weight 1', options: { recall: { graph: 1 } } },
];

/** ABLATION_ROWS=4,5 runs those rows only (0-based); default every row. */
const ROWS = process.env.ABLATION_ROWS ? process.env.ABLATION_ROWS.split(',').map((i) => ALL_ROWS[Number(i)]!) : ALL_ROWS;

const MODES: EvalMode[] = (process.env.ABLATION_MODES?.split(',') as EvalMode[] | undefined) ?? ['hybrid', 'funnel'];
const f3 = (x: number) => x.toFixed(3);

/** Question-weighted mean of several samples' reports for one mode (and category). */
function combine(reports: readonly LocomoReport[], mode: EvalMode, category?: string): { at10: number; at1000: number; n: number } {
  let n = 0;
  let at10 = 0;
  let at1000 = 0;
  for (const r of reports) {
    const m = r.modes[mode];
    const part = category ? m?.byCategory[category] : m && { questions: r.questions, ...m };
    if (!part || part.questions === 0) continue;
    n += part.questions;
    at10 += part.recallAtK['10']! * part.questions;
    at1000 += part.recallAtBudget['1000']! * part.questions;
  }
  return { at10: n ? at10 / n : 0, at1000: n ? at1000 / n : 0, n };
}

async function main(): Promise<void> {
  const file = process.argv[2] ?? '../shared/data/locomo/locomo-dev.json';
  if (!existsSync(file)) throw new Error(`${file} not found (LoCoMo lives in ../shared/data/locomo/).`);
  const parsed = parseLocomo(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error.message);
  await loadHnswlibQuietly();
  const samples = parsed.value;
  const lines: string[] = [];
  for (const mode of MODES) {
    lines.push(`### ${mode}`, '');
    lines.push(`| change | @10 | 1000 tk | cat 1 | cat 2 | cat 3 | cat 4 | ${samples.map((s) => s.sample_id).join(' | ')} |`);
    lines.push(`| --- | --- | --- | --- | --- | --- | --- | ${samples.map(() => '---').join(' | ')} |`);
  }
  const tables = new Map<EvalMode, string[]>(MODES.map((m) => [m, []]));
  for (const row of ROWS) {
    const reports: LocomoReport[] = [];
    for (const sample of samples) reports.push((await runLocomo([sample], { ...row.options, modes: MODES })).report);
    for (const mode of MODES) {
      const all = combine(reports, mode);
      const cats = ['1', '2', '3', '4'].map((c) => combine(reports, mode, c));
      const per = reports.map((r) => f3(r.modes[mode]!.recallAtK['10']!));
      tables
        .get(mode)!
        .push(
          `| ${row.label} | ${f3(all.at10)} | ${f3(all.at1000)} | ${cats.map((c) => `${f3(c.at10)} / ${f3(c.at1000)}`).join(' | ')} | ${per.join(' | ')} |`,
        );
    }
    console.error(`done: ${row.label}`);
  }
  const out: string[] = [];
  for (const mode of MODES) {
    const head = lines.splice(0, 4);
    out.push(...head, ...tables.get(mode)!, '');
  }
  console.log(out.join('\n'));
}

await main();
