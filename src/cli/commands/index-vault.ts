import { resolve } from 'node:path';
import type { EmbedderChoice } from '../../lib/core/api/embedder';
import type { HealthReport } from '../../lib/core/api/index-api';
import { ARCTIC_EMBED_XS, TINY_TEST_MODEL } from '../../lib/models/embedding-models';
import { openInProcessIndex, type InProcessIndex } from '../../lib/services/index/in-process';
import type { IndexService } from '../../lib/services/index/index-service';
import { queueIndexing } from '../../lib/store/index-queue';
import { runImport } from '../../lib/store/importer';
import { openVault } from '../../lib/store/vault';
import { UsageError, type Command } from '../command';
import { expandPaths, inputsFor } from './import';

const KNOWN_HUB_MODELS = [ARCTIC_EMBED_XS];

/** `lexical`, `tiny-test` (the generated model, loaded from static/test-models) or `transformers:<hub id>`. */
export function parseEmbedder(value: string | undefined, testModels = resolve('static/test-models')): EmbedderChoice {
  if (!value || value === 'lexical') return { kind: 'lexical' };
  if (value === 'tiny-test') return { kind: 'transformers', spec: TINY_TEST_MODEL, origin: 'origin', path: testModels };
  const id = value.startsWith('transformers:') ? value.slice('transformers:'.length) : null;
  const spec = KNOWN_HUB_MODELS.find((m) => m.modelId === id);
  if (!spec) {
    throw new UsageError(
      `Unknown embedder "${value}": use lexical, tiny-test or ${KNOWN_HUB_MODELS.map((m) => `transformers:${m.modelId}`).join(', ')}.`,
    );
  }
  return { kind: 'transformers', spec, origin: 'hub' };
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

function textReport(json: ReturnType<typeof summary>): string {
  const h = json.health;
  return [
    `Imported ${json.counts.conversations} conversations, ${json.counts.messages} messages, ${json.counts.resources} documents in ${json.seconds.import} s.`,
    `Indexed ${json.counts.documents} documents (${json.counts.chunks} chunks, ${json.counts.notes} notes): BM25 ${json.counts.bm25Terms} terms; ` +
      `${json.counts.vectors} vectors of ${json.embedder.id} (${json.embedder.dims} dimensions, ${json.embedder.device ?? 'in process'}).`,
    `Time: chunking and BM25 ${json.seconds.update} s, embedding and HNSW ${json.seconds.embed} s (${json.embedded_per_s} documents/s), total ${json.seconds.total} s.`,
    h
      ? `Health: recall@10 ${h.recallAt10.toFixed(3)} of HNSW vs exact search on ${h.queries} sampled queries (ef ${h.ef}, ${h.verdict}).`
      : 'Health: not measured.',
    ...json.notices.map((n) => `Notice: ${n}`),
  ].join('\n');
}

function summary(
  service: IndexService,
  vaultCounts: { conversations: number; messages: number; resources: number },
  seconds: Record<string, number>,
) {
  const status = service.status('leader', { paused: false, running: null, pending: 0 });
  const health: HealthReport | null = status.health;
  return {
    embedder: { id: status.serving.embedderId, kind: status.serving.kind, dims: status.serving.dims, device: status.embedder.device },
    counts: {
      ...vaultCounts,
      documents: status.documents.total,
      chunks: status.documents.chunks,
      notes: status.documents.notes,
      bm25Documents: status.bm25.documents,
      bm25Terms: status.bm25.terms,
      vectors: status.serving.count,
    },
    seconds: {
      import: round(seconds.import ?? 0),
      update: round(seconds['index.update'] ?? 0),
      embed: round(seconds['index.embed'] ?? 0),
      total: round(seconds.total ?? 0),
    },
    embedded_per_s: round(status.serving.count / Math.max(1e-6, seconds['index.embed'] ?? 0), 1),
    health: health && {
      recallAt10: round(health.recallAt10, 4),
      queries: health.queries,
      ef: health.ef,
      verdict: health.verdict,
      vectors: health.vectors,
    },
    notices: status.notices.map((n) => n.message),
  };
}

export const indexCommand: Command = {
  name: 'index',
  summary: 'Import exports into a fresh in-memory vault and index them (chunks, BM25, vectors, HNSW health).',
  usage: 'index <file|dir...> [--embedder lexical|tiny-test|transformers:<model-id>] [--json]',
  async run(argv) {
    const at = argv.indexOf('--embedder');
    const choice = parseEmbedder(at >= 0 ? argv[at + 1] : undefined);
    if (at >= 0 && !argv[at + 1]) throw new UsageError('--embedder needs a value.');
    const paths = argv.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
    if (paths.length === 0) throw new UsageError('Name at least one export file or folder.');
    const files = await expandPaths(paths);
    const vault = await openVault(`cli-index-${process.pid}-${Date.now()}`);
    const seconds: Record<string, number> = {};
    const t0 = performance.now();
    let index: InProcessIndex | null = null;
    try {
      // The chosen embedder serves from the start: a fresh vault has no other index to keep serving.
      await vault.settings.set('index.serving', choice.kind === 'lexical' ? null : choice);
      const report = await runImport(vault, await inputsFor(files), { onPublished: queueIndexing(vault) });
      seconds.import = (performance.now() - t0) / 1000;
      index = await openInProcessIndex(vault, { embedder: choice, seconds, rebuild: false });
      await index.runJobs();
      const service = index.service;
      seconds.total = (performance.now() - t0) / 1000;
      const t = report.totals;
      const json = summary(
        service,
        { conversations: t.conversations.stored, messages: t.messages.stored, resources: t.resources.stored },
        seconds,
      );
      return { json, text: textReport(json), exitCode: report.status === 'done' ? 0 : 1 };
    } finally {
      index?.close();
      vault.db.close();
    }
  },
};
