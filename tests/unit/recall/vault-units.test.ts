import { afterEach, describe, expect, it } from 'vitest';
import type { ParsedConversation } from '../../../src/lib/core/import/parsed';
import { parsedEvents } from '../../../src/lib/core/import/parsed-events';
import { runImport } from '../../../src/lib/store/importer';
import { openVault, type Vault } from '../../../src/lib/store/vault';
import { vaultUnits } from '../../../workers/recall/vault-units';

const message = (externalId: string, role: 'user' | 'assistant' | 'system', text: string, over: object = {}) => ({
  externalId,
  role,
  text,
  createdAt: Date.UTC(2024, 2, 5),
  parentExternalId: null,
  onVisiblePath: true,
  hidden: false,
  ...over,
});

const conversation: ParsedConversation = {
  source: 'chatgpt',
  externalId: 'garden-1',
  title: 'Garden planning',
  createdAt: Date.UTC(2024, 2, 5),
  updatedAt: null,
  notes: [],
  messages: [
    message('s', 'system', 'You are a helpful gardener and you answer briefly.', { hidden: true }),
    message('a', 'user', 'How should I lay out the raked gravel in my small garden?'),
    message('b', 'assistant', 'Leave open raked gravel between the stone groups as negative space.'),
    message('c', 'assistant', 'An earlier draft answer about paving the whole garden over.', { onVisiblePath: false }),
  ],
};

let vault: Vault | null = null;
afterEach(async () => {
  await vault?.db.delete();
  vault = null;
});

describe('vaultUnits', () => {
  it('reads the visible thread of visible conversations and the kept resources, chunked', async () => {
    vault = await openVault(`vault-units-${Date.now()}`);
    const resource = { externalId: 'doc-1', title: 'Karesansui primer', text: '# Karesansui\n\nDry gardens use gravel for water.' };
    const report = await runImport(vault, [
      { name: 'fixture', size: null, events: parsedEvents('fixture', 'chatgpt', [conversation], [resource], 0) },
    ]);
    expect(report.status).toBe('done');
    const units = await vaultUnits(vault);
    const texts = units.map((u) => u.record.text);
    expect(texts).toContain('Leave open raked gravel between the stone groups as negative space.');
    expect(texts.join('\n')).not.toMatch(/helpful gardener|earlier draft/u);
    const turn = units.find((u) => u.record.text.startsWith('Leave open'))!;
    expect(turn.record).toMatchObject({ kind: 'chunk', tier: 'chat', sourceTitle: 'Garden planning', date: Date.UTC(2024, 2, 5) });
    expect(turn.indexText).toContain('Assistant: Leave open');
    expect(turn.indexText).toContain('lay out the raked gravel');
    const doc = units.find((u) => u.record.tier === 'resource')!;
    expect(doc.record).toMatchObject({ kind: 'chunk', sourceTitle: 'Karesansui primer', headingPath: ['Karesansui'] });
    expect(doc.record.id).toMatch(/#0$/u);
  });
});
