/**
 * The evaluation's default index: one record per LoCoMo turn, "Speaker: text" (the setup the first
 * measurements used), for the test double and for comparison with the engine's units.
 */
import { hashBasis } from '../text/normalize';
import type { LocomoEvalOptions, SampleIndex } from './eval-locomo';
import { sampleToConversations, turnText, type LocomoSample } from './locomo-data';
import type { CandidateRecord } from './ports';
import { countTokens as defaultCounter, type TokenCounter } from '../text/token-count';

export function sampleRecords(sample: LocomoSample, count: TokenCounter): CandidateRecord[] {
  return sampleToConversations(sample).flatMap((conv) =>
    conv.messages.map((m): CandidateRecord => {
      const text = turnText(m);
      return {
        id: m.id,
        kind: 'chunk',
        text,
        tier: 'chat',
        createdAt: m.createdAt ?? 0,
        accessCount: 0,
        lastAccessedAt: null,
        conversationId: conv.id,
        sourceTitle: conv.title,
        date: m.createdAt,
        messageIds: [m.id],
        contentHash: hashBasis(text),
        headingPath: [],
        tokenCount: count(text),
        pinned: false,
      };
    }),
  );
}

/** The default index: one record per turn (`sampleRecords`) through `buildIndex`. */
export async function recordIndex(sample: LocomoSample, o: Pick<LocomoEvalOptions, 'buildIndex' | 'countTokens'>): Promise<SampleIndex> {
  if (!o.buildIndex) throw new Error('runLocomoEval needs indexSample or buildIndex');
  const records = sampleRecords(sample, o.countTokens ?? defaultCounter);
  const deps = await o.buildIndex(records);
  const prefix = sample.sample_id.length + 1;
  return { deps, diaIdOf: (id) => (id.startsWith(`${sample.sample_id}/`) ? id.slice(prefix) : undefined) };
}
