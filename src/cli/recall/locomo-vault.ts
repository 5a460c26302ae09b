/**
 * A LoCoMo sample as a vault holds it, through the product's own importer: one conversation per
 * session dated by `session_N_date_time`, every turn a message whose external id is its dia_id.
 * The store keeps roles, not names, so the sample's two speakers come back as the names of the
 * roles (speaker_a is the user) when the conversations are chunked.
 */
import { parsedEvents } from '../../lib/core/import/parsed-events';
import type { ParsedConversation, ParsedMessage } from '../../lib/core/import/parsed';
import type { ImportReport } from '../../lib/core/import/report';
import { sampleToConversations, type LocomoSample } from '../../lib/core/recall/locomo-data';
import type { MessageRecord } from '../../lib/core/records';
import { runImport } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import type { IndexUnit, UnitOptions } from '../../../workers/recall/units';
import { vaultUnits } from '../../../workers/recall/vault-units';

/** `titleOf` replaces a session's title (default: the sample id, session number and date text). */
export type SessionTitle = (session: number, title: string) => string;

export function sampleParsedConversations(sample: LocomoSample, titleOf?: SessionTitle): ParsedConversation[] {
  return sampleToConversations(sample).map((conv) => {
    let parent: string | null = null;
    const messages = conv.messages.map((m): ParsedMessage => {
      const message: ParsedMessage = {
        externalId: m.diaId,
        role: m.role,
        text: m.text,
        createdAt: m.createdAt,
        parentExternalId: parent,
        onVisiblePath: true,
        hidden: false,
        contentType: 'text',
      };
      parent = m.diaId;
      return message;
    });
    const n = Number(/session-(\d+)$/u.exec(conv.id)?.[1] ?? 0);
    return {
      source: 'transcript',
      externalId: conv.id,
      title: titleOf ? titleOf(n, conv.title) : conv.title,
      createdAt: conv.createdAt,
      updatedAt: conv.createdAt,
      messages,
      notes: [],
    };
  });
}

export interface SampleVault {
  vault: Vault;
  report: ImportReport;
  /** The canonical dia_id of a stored message. */
  diaIdOf: Map<string, string>;
  units: IndexUnit[];
}

let vaults = 0;

/** A fresh in-memory vault holding the sample, and its units. Close `vault.db` when done. */
export async function importSample(
  sample: LocomoSample,
  options: UnitOptions & { titleOf?: (n: number, title: string) => string } = {},
): Promise<SampleVault> {
  const vault = await openVault(`locomo-${sample.sample_id}-${process.pid}-${++vaults}`);
  const conversations = sampleParsedConversations(sample, options.titleOf);
  const messages = conversations.reduce((n, c) => n + c.messages.length, 0);
  const events = parsedEvents(`${sample.sample_id}.json`, 'transcript', conversations, [], 0);
  const report = await runImport(vault, [{ name: `LoCoMo ${sample.sample_id}`, size: null, events }]);
  if (report.status !== 'done' || report.totals.messages.stored !== messages) {
    vault.db.close();
    throw new Error(
      `LoCoMo ${sample.sample_id} did not import cleanly (${report.status}, ${report.totals.messages.stored}/${messages} messages).`,
    );
  }
  const conv = sample.conversation;
  const names = { user: String(conv.speaker_a ?? 'User'), assistant: String(conv.speaker_b ?? 'Assistant') };
  const rows: MessageRecord[] = await vault.db.messages.toArray();
  const diaIdOf = new Map(rows.map((r) => [r.id, r.externalId]));
  const units = await vaultUnits(vault, {
    ...options,
    speakerOf: (m) => (m.role === 'user' ? names.user : m.role === 'assistant' ? names.assistant : null),
  });
  return { vault, report, diaIdOf, units };
}
