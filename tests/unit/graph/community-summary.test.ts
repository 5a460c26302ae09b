import { describe, expect, it } from 'vitest';
import {
  COMMUNITY_SUMMARY_DOCUMENTS,
  communityMaterial,
  communitySignature,
  summarizeCommunity,
} from '../../../src/lib/core/graph/community-summary';
import type { EntityCommunity } from '../../../src/lib/core/graph/communities';
import { HANG, scriptedLlm } from '../../factories/scripted-llm';

const community: EntityCommunity = {
  id: 'community:rachio',
  entities: [
    { id: 'rachio', name: 'Rachio', kind: 'name', mentions: 4 },
    { id: 'hunter', name: 'Hunter', kind: 'name', mentions: 3 },
    { id: 'zigbee', name: 'Zigbee', kind: 'name', mentions: 2 },
  ],
  docIds: ['c_1', 'c_2', 'c_3'],
  conversationIds: ['conv-garden'],
};

const documents = [
  { text: 'My Rachio controller waters the tomato beds through Hunter valves. Should I switch the hub to Zigbee?', title: 'Garden' },
  { text: "Then I'll keep the Rachio on Wi-Fi and add two Hunter valves for the new beds.", title: 'Garden' },
];

const SUMMARY =
  'Rachio is the Wi-Fi irrigation controller for the tomato beds; Hunter valves are wired to it, and Zigbee was considered for soil sensors but not needed.';

describe('an entity community summarised by the LLM', () => {
  it('sends the names and the passages, and keeps a summary within bounds', async () => {
    const llm = scriptedLlm([JSON.stringify({ summary: SUMMARY })]);
    const result = await summarizeCommunity(community, documents, llm);
    expect(result).toEqual({ ok: true, text: SUMMARY, words: SUMMARY.split(' ').length, llmId: llm.id });
    const sent = llm.calls[0]!.messages.map((m) => m.content).join('\n');
    expect(sent).toContain('Names: Rachio, Hunter, Zigbee');
    expect(sent).toContain("[2] (Garden) Then I'll keep the Rachio on Wi-Fi");
    expect(llm.calls[0]!.options.jsonSchema).toBeDefined();
  });

  it('cuts each passage and sends at most the community best documents', () => {
    const long = { text: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), title: null };
    const material = communityMaterial(
      community,
      Array.from({ length: COMMUNITY_SUMMARY_DOCUMENTS + 3 }, () => long),
    );
    expect(material.split('\n').filter((l) => l.startsWith('['))).toHaveLength(COMMUNITY_SUMMARY_DOCUMENTS);
    expect(material).toContain('word59 …');
    expect(material).not.toContain('word60');
  });

  it('refuses an answer that is not the JSON asked for, too short or too long, and a failed call', async () => {
    const cases = [
      'Rachio and Hunter are irrigation parts.',
      JSON.stringify({ text: SUMMARY }),
      JSON.stringify({ summary: 'Irrigation parts.' }),
      JSON.stringify({ summary: Array.from({ length: 120 }, () => 'word').join(' ') }),
      { error: { code: 'llm/failed' as const, message: 'The server answered 500.' } },
    ];
    const reasons: string[] = [];
    for (const step of cases) {
      const result = await summarizeCommunity(community, documents, scriptedLlm([step]));
      expect(result.ok).toBe(false);
      if (!result.ok) reasons.push(result.error.code);
    }
    expect(reasons).toEqual(['llm/invalid-output', 'llm/invalid-output', 'llm/invalid-output', 'llm/invalid-output', 'llm/failed']);
  });

  it('ends by the timeout when the model does not answer', async () => {
    const result = await summarizeCommunity(community, documents, scriptedLlm([HANG]), { timeoutMs: 20 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('llm/timeout');
  });

  it('throws on a cancelled call (the job stops)', async () => {
    const abort = new AbortController();
    const pending = summarizeCommunity(community, documents, scriptedLlm([HANG]), { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'llm/cancelled' });
  });

  it('signs a community by its members and the documents the model reads', () => {
    const same = communitySignature({ ...community, entities: [...community.entities].reverse() });
    expect(same).toBe(communitySignature(community));
    const member = { id: 'patel', name: 'Dr. Patel', kind: 'person' as const, mentions: 2 };
    expect(communitySignature({ ...community, entities: [...community.entities, member] })).not.toBe(same);
    expect(communitySignature({ ...community, docIds: ['c_1', 'c_3'] })).not.toBe(same);
    // A document beyond the ones the model reads does not change what it read.
    const many = Array.from({ length: COMMUNITY_SUMMARY_DOCUMENTS }, (_, i) => `c_${i}`);
    expect(communitySignature({ ...community, docIds: [...many, 'c_late'] })).toBe(communitySignature({ ...community, docIds: many }));
  });
});
