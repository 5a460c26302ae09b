/**
 * The before/after table of the recall changes on LoCoMo: each row adds one change to the one
 * before (or varies one setting) and runs the whole evaluation through the importer and the engine.
 * Not a benchmark module (nothing here is timed); run it by hand:
 *   npx tsx tests/bench/recall-ablation.ts [../shared/data/locomo/locomo-dev.json] > table.md
 * Evidence recall at 10 items / at 1,000 tokens, per mode and category, as Markdown.
 */
import '../../src/cli/node-env';
import { existsSync, readFileSync } from 'node:fs';
import { runLocomoEval, type EvalMode, type LocomoReport } from '../../src/lib/core/recall/eval-locomo';
import { parseLocomo, type LocomoSample } from '../../src/lib/core/recall/locomo-data';
import { LexicalEmbedder } from '../../src/lib/models/lexical-embedder';
import { importSample } from '../../src/cli/recall/locomo-vault';
import { RecallEngine } from '../../workers/recall/engine';
import { DEFAULT_NEIGHBOURS, NO_NEIGHBOURS, type IndexUnit, type UnitOptions } from '../../workers/recall/units';

interface Row {
  label: string;
  /** One record per turn, "Speaker: text" (the phase-1 setup), instead of the importer's chunks. */
  turns?: boolean;
  units?: UnitOptions;
  /** Session titles without LoCoMo's date text ("Session 3"), as a product conversation's title would be. */
  plainTitles?: boolean;
  floor?: number;
  recency?: boolean;
}

const PHASE1_FLOOR = 0.12;
const NONE: UnitOptions = { neighbours: NO_NEIGHBOURS, dateWords: false };
const NB = (o: Partial<typeof DEFAULT_NEIGHBOURS>) => ({ ...DEFAULT_NEIGHBOURS, maxNeighbourWords: undefined, ...o });

const ROWS: Row[] = [
  { label: '0 phase 1: one record per turn, "Speaker: text"', turns: true, floor: PHASE1_FLOOR },
  { label: '1 importer chunks, context text (title, date, speaker)', units: NONE, floor: PHASE1_FLOOR },
  {
    label: '2a + neighbours 1+1 (with names)',
    units: { ...NONE, neighbours: NB({ before: 1, after: 1, neighbourSpeakers: true }) },
    floor: PHASE1_FLOOR,
  },
  { label: '2b + neighbours 2+2 (with names)', units: { ...NONE, neighbours: NB({ neighbourSpeakers: true }) }, floor: PHASE1_FLOOR },
  {
    label: '2c + neighbours 3+3 (with names)',
    units: { ...NONE, neighbours: NB({ before: 3, after: 3, neighbourSpeakers: true }) },
    floor: PHASE1_FLOOR,
  },
  { label: '3 neighbours 2+2, words only', units: { ...NONE, neighbours: NB({}) }, floor: PHASE1_FLOOR },
  { label: '3x (tried) 2+2 words, own words twice', units: { ...NONE, neighbours: NB({ selfWeight: 2 }) }, floor: PHASE1_FLOOR },
  { label: '3y (tried) 2+2 words, embedder reads the window', units: { ...NONE, neighbours: NB({ embed: true }) }, floor: PHASE1_FLOOR },
  { label: '4 + at most 60 words per neighbour', units: { ...NONE, neighbours: DEFAULT_NEIGHBOURS }, floor: PHASE1_FLOOR },
  { label: '5 + date in words', units: { neighbours: DEFAULT_NEIGHBOURS, dateWords: true }, floor: PHASE1_FLOOR },
  {
    label: '5t (tried) row 4, titles "Session N"',
    units: { neighbours: DEFAULT_NEIGHBOURS, dateWords: false },
    plainTitles: true,
    floor: PHASE1_FLOOR,
  },
  {
    label: '5u (tried) row 5, titles "Session N"',
    units: { neighbours: DEFAULT_NEIGHBOURS, dateWords: true },
    plainTitles: true,
    floor: PHASE1_FLOOR,
  },
  { label: '6 + floor re-measured (0.05)', units: { neighbours: DEFAULT_NEIGHBOURS, dateWords: true } },
  { label: '7 + recency off (archive read as a whole)', units: { neighbours: DEFAULT_NEIGHBOURS, dateWords: true }, recency: false },
];

const MODES: EvalMode[] = ['bm25', 'vector', 'hybrid', 'funnel'];
const embedder = new LexicalEmbedder();

async function evaluate(samples: readonly LocomoSample[], row: Row): Promise<LocomoReport> {
  const common = { clock: () => performance.now(), modes: MODES, ...(row.floor ? { floor: row.floor } : {}), recency: row.recency ?? true };
  const engineOf = async (units: readonly IndexUnit[]) => {
    const engine = await RecallEngine.create({ embedder, capacity: units.length });
    await engine.add(units);
    return engine.deps();
  };
  if (row.turns) {
    const buildIndex = (records: readonly IndexUnit['record'][]) =>
      engineOf(records.map((r) => ({ record: r, indexText: r.text, embedText: r.text })));
    return (await runLocomoEval(samples, { ...common, buildIndex })).report;
  }
  const { report } = await runLocomoEval(samples, {
    ...common,
    indexSample: async (sample) => {
      const titles = row.plainTitles ? { titleOf: (n: number) => `Session ${n}` } : {};
      const imported = await importSample(sample, { ...(row.units ?? {}), ...titles });
      await imported.vault.db.delete();
      return { deps: await engineOf(imported.units), diaIdOf: (id) => imported.diaIdOf.get(id) };
    },
  });
  return report;
}

const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

function line(label: string, report: LocomoReport, mode: EvalMode): string {
  const m = report.modes[mode]!;
  const cats = ['1', '2', '3', '4'].map((c) => `${f(m.byCategory[c]?.recallAtK['10'])} / ${f(m.byCategory[c]?.recallAtBudget['1000'])}`);
  return `| ${label} | ${f(m.recallAtK['5'])} | ${f(m.recallAtK['10'])} | ${f(m.recallAtBudget['500'])} | ${f(m.recallAtBudget['1000'])} | ${cats.join(' | ')} |`;
}

async function main(): Promise<void> {
  const file = process.argv[2] ?? '../shared/data/locomo/locomo-dev.json';
  if (!existsSync(file)) {
    console.error(`LoCoMo not found at ${file}: nothing to do (it lives in ../shared/data, never in the repo).`);
    return;
  }
  const parsed = parseLocomo(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const reports: [Row, LocomoReport][] = [];
  for (const row of ROWS) {
    console.error(`running: ${row.label}`);
    reports.push([row, await evaluate(parsed.value, row)]);
  }
  for (const mode of MODES) {
    console.log(`\n### ${mode}\n`);
    console.log('| change | @5 | @10 | 500 tk | 1000 tk | cat 1 @10 / 1000 tk | cat 2 | cat 3 | cat 4 |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const [row, report] of reports) console.log(line(row.label, report, mode));
  }
  const last = reports[reports.length - 1]![1];
  console.log(`\n${last.questions} answerable questions; category 5 holds-nothing rate ${last.unanswerable.holdsNothingRate}`);
}

await main();
