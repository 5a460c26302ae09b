import { afterEach, describe, expect, it } from 'vitest';
import { EXTRACT_JOB } from '../../../src/lib/core/api/extract-api';
import { recall } from '../../../src/lib/core/recall/recall';
import { LexicalEmbedder } from '../../../src/lib/models/lexical-embedder';
import { queueAfterPublish } from '../../../src/lib/store/extract-queue';
import { JobRunner } from '../../../src/lib/store/job-runner';
import { runImport } from '../../../src/lib/store/importer';
import { keepCandidates } from '../../../src/lib/store/note-actions';
import { extractHandler } from '../../../src/lib/services/extraction/extract-job';
import { indexNeighbours } from '../../../src/lib/services/extraction/index-neighbours';
import { indexHarness, type Harness } from '../../factories/index-harness';
import { seededRng } from '../../factories/db';
import { GARDEN_TRANSCRIPT } from './helpers';

let harness: Harness | null = null;
afterEach(() => {
  harness?.close();
  harness = null;
});

const ENGRAM = "I've decided to prune the maple in late February.";

/** The index worker's runner as the app builds it: index jobs plus extraction, with the index's neighbour search. */
async function drain(runner: JobRunner, h: Harness): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if ((await runner.runOnce()) === 'ran') continue;
    if ((await h.vault.db.jobs.where('status').anyOf('pending', 'leased').count()) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('from transcript to recall', () => {
  it('extraction runs after indexing, and a kept engram outranks the transcript chunk it came from', async () => {
    const h = (harness = await indexHarness());
    const runner = new JobRunner({
      jobs: h.vault.jobs,
      workerId: 'index-extract',
      rng: seededRng(3),
      handlers: {
        ...h.service.handlers(),
        [EXTRACT_JOB]: extractHandler({ vault: h.vault, neighbours: indexNeighbours(h.service), llm: () => null }),
      },
    });
    const bytes = new TextEncoder().encode(GARDEN_TRANSCRIPT);
    await runImport(h.vault, [{ name: 'garden.txt', size: bytes.length, bytes }], { onPublished: queueAfterPublish(h.vault) });
    await drain(runner, h);
    const candidate = (await h.vault.db.notes.where('status').equals('provisional').toArray()).find((n) => n.text === ENGRAM)!;
    expect(candidate).toBeDefined();

    await keepCandidates(h.vault, [{ id: candidate.id }], Date.now());
    await drain(runner, h);

    const embedder = new LexicalEmbedder();
    const result = await recall(
      { prompt: 'When do I prune the maple in late February?' },
      {
        lexical: { search: (q, k) => h.service.lexicalSearch(q, k) },
        vector: { search: (v, k) => h.service.vectorSearch(v, k), similarity: (v, ids) => h.service.similarity(v, ids) },
        embedder,
        store: { get: (ids) => h.service.candidates(ids) },
        now: Date.now(),
      },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const items = result.value.items;
    expect(items[0]?.record).toMatchObject({ id: candidate.id, kind: 'note', tier: 'engram', text: ENGRAM });
    const chunk = items.find((i) => i.record.kind === 'chunk' && i.record.messageIds.some((m) => candidate.sourceMessageIds.includes(m)));
    expect(chunk).toBeDefined();
    expect(items.indexOf(chunk!)).toBeGreaterThan(0);
  });
});
