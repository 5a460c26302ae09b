import { describe, expect, it } from 'vitest';
import {
  canonicalDiaId,
  normalizeEvidenceIds,
  parseLocomo,
  parseSessionDate,
  sampleToConversations,
  turnText,
} from '../../../src/lib/core/recall/locomo-data';
import { syntheticSample } from '../../factories/recall-locomo';

describe('LoCoMo evidence ids', () => {
  it('normalizes the malformed ids found in the dataset', () => {
    expect(normalizeEvidenceIds(['D8:6; D9:17'])).toEqual({ ids: ['D8:6', 'D9:17'], malformed: [] });
    expect(normalizeEvidenceIds(['D:11:26'])).toEqual({ ids: ['D11:26'], malformed: [] });
    expect(normalizeEvidenceIds(['D30:05'])).toEqual({ ids: ['D30:5'], malformed: [] });
    expect(normalizeEvidenceIds(['D'])).toEqual({ ids: [], malformed: ['D'] });
  });

  it('accepts other separators and spacing, and removes duplicates', () => {
    expect(normalizeEvidenceIds(['d3:4, D3:04', 'D 7 : 2', 'D1:1 D1:2'])).toEqual({ ids: ['D3:4', 'D7:2', 'D1:1', 'D1:2'], malformed: [] });
    expect(canonicalDiaId('D01:007')).toBe('D1:7');
  });
});

describe('LoCoMo samples as a vault', () => {
  it('reads session dates', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseSessionDate('12:06 am on 11 November, 2022')).toBe(Date.UTC(2022, 10, 11, 0, 6));
    expect(parseSessionDate('sometime')).toBeNull();
  });

  it('makes one dated conversation per session and one message per turn that remembers its dia_id', () => {
    const parsed = parseLocomo([syntheticSample()]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const conversations = sampleToConversations(parsed.value[0]!);
    expect(conversations.map((c) => [c.id, c.createdAt, c.messages.length])).toEqual([
      ['synthetic-1/session-1', Date.UTC(2023, 4, 8, 13, 56), 3],
      ['synthetic-1/session-2', Date.UTC(2023, 5, 20, 9, 0), 2],
    ]);
    const [first, , withPhoto] = conversations[0]!.messages;
    expect(first).toMatchObject({ id: 'synthetic-1/D1:1', diaId: 'D1:1', role: 'user', speaker: 'Ana', ordinal: 0 });
    expect(conversations[1]!.messages[0]!.role).toBe('assistant');
    expect(turnText(withPhoto!)).toBe('Ana: I also started pottery classes on Tuesdays. [shares a photo: a photo of a clay bowl]');
  });

  it('rejects what is not a LoCoMo file', () => {
    expect(parseLocomo({ not: 'an array' })).toMatchObject({ ok: false, error: { code: 'input/invalid' } });
  });
});
