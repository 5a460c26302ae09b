/**
 * The LLM's community summaries through the app's parts: chats imported and extracted, indexed by the
 * index service (which builds the entity graph), the `summarize.communities` job run with a scripted
 * model, and the structural index built from what it stored. The job writes a summary per community,
 * skips current ones on the next run, drops those of communities that are gone, stops when the
 * summaries' breaker opens, and does nothing without a model; a summary written from other members
 * or documents is not shown; an index rebuild (after a restore or merge) clears them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communitySummaryJob, indexRebuildJob } from '../../../src/lib/core/api/index-api';
import { StageBreakers } from '../../../src/lib/core/breaker/circuit-breaker';
import { entityCommunities } from '../../../src/lib/core/graph/communities';
import type { JobRecord } from '../../../src/lib/core/records';
import { readCandidates } from '../../../src/lib/services/index/candidates';
import { communitySummaryHandler, type CommunitySummaryCounts } from '../../../src/lib/services/index/community-summaries';
import type { InProcessIndex } from '../../../src/lib/services/index/in-process';
import { StructureView } from '../../../src/lib/services/index/structure-view';
import type { Vault } from '../../../src/lib/store/vault';
import { scriptedLlm } from '../../factories/scripted-llm';
import { chatVault, GARDEN, type ChatVault } from './chat-vault';

/** The cat chat with a clinic named beside the vet, so its names make a community of three. */
const CAT_AT_CLINIC = [
  'User: Miso, my cat, is overweight. The vet, Dr. Patel at Oakfield Clinic, wants her to lose 400 grams.',
  'Assistant: Measure portions and switch Miso to wet food twice a day; Dr. Patel at Oakfield Clinic may suggest a weight-control formula.',
  "User: Decision: Miso gets wet food twice a day and no more dry food. I'll weigh her every Sunday for Dr. Patel at Oakfield Clinic.",
].join('\n');

const summaryOf = (names: string) =>
  `The person's notes connect ${names}: they come up together while planning and deciding, and this group sums up that part of the vault.`;

describe('the LLM summarises entity communities', () => {
  let chats: ChatVault;
  let vault: Vault;
  let index: InProcessIndex;

  beforeAll(async () => {
    chats = await chatVault([
      ['garden.txt', GARDEN],
      ['cat.txt', CAT_AT_CLINIC],
    ]);
    ({ vault, index } = chats);
  }, 60_000);

  afterAll(() => chats.close());

  const run = async (deps: Partial<Parameters<typeof communitySummaryHandler>[0]>): Promise<CommunitySummaryCounts> => {
    const job = await vault.jobs.enqueue(communitySummaryJob(), Date.now());
    const handler = communitySummaryHandler({
      parts: index.service.parts,
      read: (ids) => readCandidates(vault, ids),
      llm: () => null,
      ...deps,
    });
    const out = await handler({
      job: job as JobRecord,
      signal: new AbortController().signal,
      progress: () => undefined,
      checkpoint: async () => undefined,
    });
    return out as CommunitySummaryCounts;
  };
  const freshView = () => new StructureView(index.service.parts, (ids) => readCandidates(vault, ids));
  const communityUnits = async () =>
    [...(await freshView().index()).search('Rachio Hunter Zigbee Miso Patel Oakfield Clinic', 20)]
      .map((h) => h.record)
      .filter((r) => r.structure?.kind === 'community');

  it('does nothing without a model', async () => {
    const counts = await run({ llm: () => null });
    expect(counts).toMatchObject({ written: 0, stopped: 'no language model is loaded' });
    expect(await vault.db.communitySummaries.count()).toBe(0);
  });

  it('writes a summary per community, shown in its overview line with the model named', async () => {
    const communities = entityCommunities(index.service.parts.graph);
    expect(communities.length).toBeGreaterThanOrEqual(2);
    const llm = scriptedLlm((messages) => {
      const names = /Names: ([^\n]+)/u.exec(messages[1]!.content)![1]!;
      return JSON.stringify({ summary: summaryOf(names) });
    }, 'fake:community-writer');
    const counts = await run({ llm: () => llm });
    expect(counts).toMatchObject({ communities: communities.length, current: 0, written: communities.length, failed: 0, stopped: null });
    expect(llm.calls).toHaveLength(communities.length);
    const units = await communityUnits();
    expect(units).toHaveLength(communities.length);
    for (const unit of units) {
      const overview = unit.text.split('\n')[0]!;
      expect(overview).toMatch(/^Named together: .*\. The person's notes connect .*vault\.$/u);
      expect(unit.structure?.summarizedBy).toBe('fake:community-writer');
    }
    // Current summaries are not asked for again.
    const again = await run({ llm: () => llm });
    expect(again).toMatchObject({ current: communities.length, written: 0 });
    expect(llm.calls).toHaveLength(communities.length);
  });

  it('shows the extractive summary where the stored one was written from other members or documents', async () => {
    const rows = await vault.db.communitySummaries.toArray();
    await vault.db.communitySummaries.bulkPut(rows.map((r) => ({ ...r, signature: 'written-from-another-group' })));
    const units = await communityUnits();
    for (const unit of units) {
      expect(unit.text.split('\n')[0]).not.toContain("The person's notes connect");
      expect(unit.structure?.summarizedBy).toBeUndefined();
    }
  });

  it('keeps the extractive summary when the model answers badly, and stops when its breaker opens', async () => {
    await vault.db.communitySummaries.clear();
    const bad = scriptedLlm(() => 'not json');
    const counts = await run({ llm: () => bad });
    expect(counts.written).toBe(0);
    expect(counts.failed).toBe(counts.communities);
    expect(counts.failures).toEqual({ 'llm/invalid-output': counts.communities });
    const breakers = new StageBreakers({ now: () => Date.now() });
    for (let i = 0; i < 10; i++) breakers.get('summaries').failed('the model timed out');
    const refused = scriptedLlm(() => JSON.stringify({ summary: summaryOf('x') }));
    const stopped = await run({ llm: () => refused, breakers });
    expect(refused.calls).toHaveLength(0);
    expect(stopped.stopped).toMatch(/summary model is bypassed/u);
    expect(await vault.db.communitySummaries.count()).toBe(0);
  });

  it('drops the summaries of communities that are gone', async () => {
    await vault.db.communitySummaries.put({ id: 'community:gone', signature: 's', text: 'An old group.', llmId: 'm', at: 1 });
    const counts = await run({ llm: () => scriptedLlm(() => JSON.stringify({ summary: summaryOf('them') })) });
    expect(counts.dropped).toBe(1);
    expect(await vault.db.communitySummaries.get('community:gone')).toBeUndefined();
    expect(await vault.db.communitySummaries.count()).toBe(counts.written);
  });

  it('a view built before the job looks again when the job has written, within the minute', async () => {
    await vault.db.communitySummaries.clear();
    const clock = 1_000_000;
    const view = new StructureView(
      index.service.parts,
      (ids) => readCandidates(vault, ids),
      () => clock,
    );
    const search = async () =>
      (await view.index())
        .search('Rachio Hunter Zigbee Miso Patel Oakfield Clinic', 20)
        .filter((h) => h.record.structure?.kind === 'community')
        .map((h) => h.record.structure?.summarizedBy ?? null);
    expect((await search()).every((by) => by === null)).toBe(true);
    const llm = scriptedLlm(() => JSON.stringify({ summary: summaryOf('them') }), 'fake:late');
    const counts = await run({ llm: () => llm, onWritten: () => view.recheck() });
    expect(counts.written).toBeGreaterThan(0);
    // The clock has not moved: without the recheck the last index would serve for a minute.
    await view.index();
    await view.settled();
    expect((await search()).every((by) => by === 'fake:late')).toBe(true);
  });

  it('an index rebuild (after a restore or merge) clears them', async () => {
    expect(await vault.db.communitySummaries.count()).toBeGreaterThan(0);
    await vault.jobs.enqueue(indexRebuildJob(), Date.now());
    await index.runJobs();
    expect(await vault.db.communitySummaries.count()).toBe(0);
  });
});
