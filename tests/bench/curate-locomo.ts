/**
 * How many proposals the cleaning sweep makes on the LoCoMo dev split (issue 17's figure), through
 * the app's path in Node: each sample imported into a fresh in-memory vault (the eval's
 * importSample), each conversation extracted by the rule-based extractor (extractAndStore, as
 * `engram extract` runs it) and then every candidate kept, as a person pressing "Keep all" in each
 * Inbox group would (keepCandidates; since the quality gate decides, "Keep all" skips candidates it
 * blocks, and so does this script: the figure in docs/CURATE.md predates that); then the sweep job itself
 * (sweepHandler, with its default confirmation) over the vault. Prints the counts per sample and per
 * proposal type, and `--sample N` proposals (seeded) with their notes' texts for checking by hand.
 * Run: `npx tsx --import ./scripts/node-resolve.js tests/bench/curate-locomo.ts [--sample 20] [--now ISO]`.
 */
import '../../src/cli/node-env';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SweepSummary } from '../../src/lib/core/api/curate-api';
import { isKeepBlocked } from '../../src/lib/core/curate/keep-gate';
import { parseLocomo } from '../../src/lib/core/recall/locomo-data';
import type { JobRecord, ProposalRecord } from '../../src/lib/core/records';
import { importSample } from '../../src/lib/services/eval/locomo-vault';
import { extractAndStore, termNeighbours } from '../../src/lib/services/extraction/extract-job';
import { sweepHandler } from '../../src/lib/services/curation/sweep-job';
import { keepCandidates } from '../../src/lib/store/note-actions';
import { seededRng } from '../factories/rng';

const { values } = parseArgs({ options: { sample: { type: 'string', default: '20' }, now: { type: 'string' } } });
const root = fileURLToPath(new URL('../..', import.meta.url));
const parsed = parseLocomo(JSON.parse(await readFile(`${root}../shared/data/locomo/locomo-dev.json`, 'utf8')));
if (!parsed.ok) throw new Error(parsed.error.message);
const now = values.now ? Date.parse(values.now) : Date.now();

interface Shown {
  sample: string;
  type: string;
  reasons: string[];
  texts: string[];
}
const all: Shown[] = [];
const totals: Record<string, number> = {};
let notesTotal = 0;
for (const sample of parsed.value) {
  const { vault } = await importSample(sample);
  try {
    const deps = { vault, neighbours: termNeighbours(vault), llm: () => null, now: () => now };
    const conversations = await vault.db.conversations.orderBy('createdAt').toArray();
    let candidates = 0;
    for (const c of conversations) {
      const { notes } = await extractAndStore(deps, c.id);
      candidates += notes.length;
      const provisional = notes.filter((n) => n.status === 'provisional' && !isKeepBlocked(n)).map((n) => ({ id: n.id }));
      if (provisional.length > 0) await keepCandidates(vault, provisional, now);
    }
    const job = { id: 'bench-sweep', type: 'curate.sweep', payload: { sweepId: `sweep-${sample.sample_id}`, reason: 'on-demand' } };
    const summary = (await sweepHandler({ vault, now: () => now })({
      job: job as unknown as JobRecord,
      signal: new AbortController().signal,
      progress: () => {},
      checkpoint: async () => {},
    })) as SweepSummary;
    const proposals: ProposalRecord[] = await vault.db.proposals.toArray();
    const byId = new Map((await vault.db.notes.toArray()).map((n) => [n.id, n]));
    notesTotal += summary.notes;
    for (const [type, n] of Object.entries(summary.proposals)) totals[type] = (totals[type] ?? 0) + (n ?? 0);
    console.log(
      `${sample.sample_id}: ${conversations.length} sessions, ${candidates} candidates kept, ${summary.notes} notes, ${summary.candidatePairs} LSH candidate pairs, ${summary.duplicatePairs} duplicate pairs, ${summary.contradictions} contradictions; proposals ${JSON.stringify(summary.proposals)}`,
    );
    for (const p of proposals) {
      all.push({
        sample: sample.sample_id,
        type: p.type,
        reasons: p.reasons,
        texts: p.noteIds.map((id) => byId.get(id)?.text ?? `(${id})`),
      });
    }
  } finally {
    vault.db.close();
    await vault.db.delete();
  }
}
console.log(
  `\nAll samples: ${notesTotal} notes; proposals ${JSON.stringify(totals)} (${all.length} in all); now = ${new Date(now).toISOString()}`,
);
const rng = seededRng(17);
const pool = [...all];
const picked: Shown[] = [];
while (picked.length < Number(values.sample) && pool.length > 0) picked.push(pool.splice(Math.floor(rng() * pool.length), 1)[0]!);
picked.forEach((p, i) => {
  console.log(`\n#${i + 1} ${p.sample} ${p.type}: ${p.reasons.join(' ')}`);
  for (const t of p.texts) console.log(`   - ${t}`);
});
