/**
 * How well the entity chips are typed (core/graph/entity-types.ts), against 190 names labelled blind
 * (tests/fixtures/graph/entity-types.json). Rebuilds what the labeller saw: the LoCoMo dev
 * conversations (../shared/data) and the labelled extraction corpus, each indexed; for the names the
 * entity graph holds most often, the first linked document's sentence around the name. Prints the
 * share typed right by the linker alone and with compromise's tagger, and what was confused.
 * A name typed 'name' (untyped) counts as right for the labels no tagger class covers (product,
 * title, other). Run: npx tsx --import ./scripts/node-resolve.js tests/bench/entity-types.ts
 */
import '../../src/cli/node-env';
import { readFileSync } from 'node:fs';
import { readLabelledCorpus } from '../../src/cli/commands/eval-labelled';
import { loadHnswlibQuietly } from '../../src/cli/recall/hnswlib-node';
import type { EntityMention } from '../../src/lib/core/graph/entity-linker';
import { typeMentions } from '../../src/lib/core/graph/entity-types';
import { corpusVault } from '../../src/lib/services/eval/global-view';
import { importSample } from '../../src/lib/services/eval/locomo-vault';
import { openInProcessIndex } from '../../src/lib/services/index/in-process';
import type { Vault } from '../../src/lib/store/vault';
import { locomoPath } from '../factories/corpus';

interface Named {
  source: string;
  mention: EntityMention;
  context: string;
}

async function named(source: string, vault: Vault, limit: number): Promise<Named[]> {
  const index = await openInProcessIndex(vault, {});
  try {
    await index.runJobs({ hints: false });
    const graph = index.service.parts.graph;
    const out: Named[] = [];
    for (const e of graph.top(limit)) {
      const [record] = await index.service.candidates(graph.documentsOf(e.id).slice(0, 1));
      const text = record?.text ?? '';
      const at = text.toLowerCase().indexOf(e.name.toLowerCase());
      const context = at < 0 ? text.slice(0, 200) : text.slice(Math.max(0, at - 100), at + e.name.length + 100);
      out.push({ source, mention: { key: e.id, name: e.name, kind: e.kind }, context: context.replace(/\s+/gu, ' ') });
    }
    return out;
  } finally {
    index.close();
    await vault.db.delete();
  }
}

await loadHnswlibQuietly();
const labels = (
  JSON.parse(readFileSync('tests/fixtures/graph/entity-types.json', 'utf8')) as {
    labels: { source: string; name: string; label: string }[];
  }
).labels;
const labelOf = new Map(labels.map((l) => [`${l.source}\u0000${l.name}`, l.label]));
const all: Named[] = [];
for (const sample of JSON.parse(readFileSync(locomoPath('../shared/data'), 'utf8')) as { sample_id: string }[]) {
  const { vault } = await importSample(sample as Parameters<typeof importSample>[0]);
  all.push(...(await named(sample.sample_id, vault, 40)));
}
const corpus = (await readLabelledCorpus('tests/fixtures/extraction')).map((c) => c.conversation);
all.push(...(await named('labelled-corpus', (await corpusVault(corpus)).vault, 120)));

const untyped = new Set(['product', 'title', 'other']);
const systems: Record<string, (n: Named) => string> = {
  'linker alone': (n) => n.mention.kind,
  'linker + compromise': (n) => typeMentions(n.context, [n.mention]).get(n.mention.key) ?? 'none',
};
for (const [system, typeOf] of Object.entries(systems)) {
  let right = 0;
  let judged = 0;
  const confused = new Map<string, number>();
  const started = performance.now();
  for (const n of all) {
    const want = labelOf.get(`${n.source}\u0000${n.mention.name}`);
    if (!want) continue;
    judged++;
    const got = typeOf(n);
    if (got === want || (got === 'name' && untyped.has(want))) right++;
    else confused.set(`${want} as ${got}`, (confused.get(`${want} as ${got}`) ?? 0) + 1);
  }
  const ms = (performance.now() - started) / Math.max(1, judged);
  console.log(
    `${system}: ${right} of ${judged} typed right (${((right / Math.max(1, judged)) * 100).toFixed(1)} %), ${ms.toFixed(2)} ms a name`,
  );
  console.log(
    `  confused: ${[...confused]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}
