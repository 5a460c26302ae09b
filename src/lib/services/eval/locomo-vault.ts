/**
 * A LoCoMo sample as a vault holds it, through the product's own importer: one conversation per
 * session dated by `session_N_date_time`, every turn a message whose external id is its dia_id and
 * whose speaker is the turn's named speaker (a named transcript keeps its names the same way).
 */
import { parsedEvents } from '../../core/import/parsed-events';
import { linearThread } from '../../core/import/linear-thread';
import type { ParsedConversation } from '../../core/import/parsed';
import type { ImportReport } from '../../core/import/report';
import { sampleToConversations, type LocomoSample } from '../../core/recall/locomo-data';
import { runImport } from '../../store/importer';
import { openVault, type Vault } from '../../store/vault';
import { allMessages } from '../../store/messages-store';

/** `titleOf` replaces a session's title (default: the sample id, session number and date text). */
export type SessionTitle = (session: number, title: string) => string;

export function sampleParsedConversations(sample: LocomoSample, titleOf?: SessionTitle): ParsedConversation[] {
  return sampleToConversations(sample).map((conv) => {
    const messages = linearThread(
      conv.messages.map((m) => ({ externalId: m.diaId, role: m.role, speaker: m.speaker, text: m.text, createdAt: m.createdAt })),
    );
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
}

let vaults = 0;

/** A fresh in-memory vault holding the sample. Delete `vault.db` when done. */
export async function importSample(sample: LocomoSample, options: { titleOf?: SessionTitle } = {}): Promise<SampleVault> {
  const vault = await openVault(`locomo-${sample.sample_id}-${globalThis.process?.pid ?? 0}-${++vaults}`);
  const conversations = sampleParsedConversations(sample, options.titleOf);
  const messages = conversations.reduce((n, c) => n + c.messages.length, 0);
  const events = parsedEvents(`${sample.sample_id}.json`, 'transcript', conversations, [], 0);
  const report = await runImport(vault, [{ name: `LoCoMo ${sample.sample_id}`, size: null, events }]);
  if (report.status !== 'done' || report.totals.messages.stored !== messages) {
    await vault.db.delete();
    throw new Error(
      `LoCoMo ${sample.sample_id} did not import cleanly (${report.status}, ${report.totals.messages.stored}/${messages} messages).`,
    );
  }
  const rows = await allMessages(vault.db);
  return { vault, report, diaIdOf: new Map(rows.map((r) => [r.id, r.externalId])) };
}
