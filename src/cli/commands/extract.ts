import type { ExtractJobResult } from '../../lib/core/api/extract-api';
import type { Llm } from '../../lib/core/api/llm';
import type { NoteRecord, Role } from '../../lib/core/records';
import { OpenAiCompatibleLlm } from '../../lib/models/openai-compatible-llm';
import { runImport } from '../../lib/store/importer';
import { openVault, type Vault } from '../../lib/store/vault';
import { extractAndStore, termNeighbours, visibleThread } from '../../lib/services/extraction/extract-job';
import { UsageError, type Command } from '../command';
import { expandPaths, inputsFor, optionValues } from './import';
import { getMessages } from '../../lib/store/messages-store';

/**
 * `engram extract <export file...> [--json]`: imports the files into a fresh in-memory vault and
 * runs the extraction job on every conversation with the extractor available (the rule-based one
 * in Node, or the person's OpenAI-compatible server with --llm-endpoint), then prints every
 * candidate: category, text, cited message ids with their roles, validator and quality flags.
 */
interface CandidateOut {
  category: string;
  kind: string;
  text: string;
  citations: { id: string; role: Role | 'missing' }[];
  validatorFlags: string[];
  qualityFlags: string[];
  extractor: string;
  decision: string;
}

interface ConversationOut {
  conversationId: string;
  title: string;
  /** Visible messages of the conversation (the extractor's input). */
  messages: number;
  run: ExtractJobResult;
  candidates: CandidateOut[];
}

async function describeNotes(vault: Vault, notes: readonly NoteRecord[]): Promise<CandidateOut[]> {
  const messages = await getMessages(vault.db, [...new Set(notes.flatMap((n) => n.sourceMessageIds))]);
  const roles = new Map(messages.filter((m) => m !== undefined).map((m) => [m.id, m.role]));
  return notes.map((n) => ({
    category: n.category,
    kind: n.review?.kind ?? 'unit',
    text: n.text,
    citations: n.sourceMessageIds.map((id) => ({ id, role: roles.get(id) ?? 'missing' })),
    validatorFlags: (n.review?.repairs ?? []).map((r) => `${r.rule}: ${r.message}`),
    qualityFlags: n.flags.filter((f) => !f.startsWith('repaired:')),
    extractor: n.review?.extractor ?? 'rule-based',
    decision: n.review?.proposal.action ?? 'add',
  }));
}

function textReport(conversations: readonly ConversationOut[], extractor: string): string {
  const messages = conversations.reduce((n, c) => n + c.messages, 0);
  const candidates = conversations.reduce((n, c) => n + c.candidates.length, 0);
  const lines = [`Extractor: ${extractor}; ${candidates} candidates from ${messages} messages`];
  for (const c of conversations) {
    const s = c.run.summary;
    lines.push('', `# ${c.title} (${c.conversationId}): ${c.messages} messages`);
    lines.push(
      `  ran: ${c.run.extractors.join(', ') || 'nothing'}; ${c.run.windows} windows; ${c.candidates.length} candidates, ${c.run.rejected} units rejected by the validator` +
        (s ? `; summary ${s.words} words (${s.method})` : ''),
    );
    for (const f of c.run.fallbacks.filter((f) => f.reason.code !== 'llm/unavailable')) {
      lines.push(`  window ${f.window}: rule-based fallback (${f.reason.code}: ${f.reason.message})`);
    }
    for (const u of c.candidates) {
      lines.push(`  [${u.category}] ${u.text}`);
      lines.push(`      cites ${u.citations.map((x) => `${x.id} (${x.role})`).join(', ')}`);
      const flags = [...u.qualityFlags, ...u.validatorFlags];
      if (flags.length > 0) lines.push(`      flags: ${flags.join('; ')}`);
      if (u.decision !== 'add') lines.push(`      decision stage: ${u.decision}`);
    }
  }
  return lines.join('\n');
}

export const extractCommand: Command = {
  name: 'extract',
  summary: 'Import exports into a fresh in-memory vault and print every extracted candidate with its citations and flags.',
  usage:
    'extract <file|dir...> [--json] [--llm-endpoint http://127.0.0.1:PORT [--llm-model NAME]]\n' +
    '  without --llm-endpoint the rule-based extractor runs (no in-browser model in Node)',
  async run(argv) {
    const options = optionValues(argv, ['--llm-endpoint', '--llm-model']);
    if (options.missing) throw new UsageError(`${options.missing} needs a value.`);
    const paths = options.rest.filter((a) => !a.startsWith('--'));
    if (paths.length === 0) throw new UsageError('Name at least one export file or folder.');
    const files = await expandPaths(paths);
    const endpoint = options.values['--llm-endpoint'];
    const llm: Llm | null = endpoint
      ? new OpenAiCompatibleLlm({ baseUrl: endpoint, model: options.values['--llm-model'] ?? 'default' })
      : null;
    const vault = await openVault(`cli-extract-${process.pid}-${Date.now()}`);
    try {
      const published: string[] = [];
      const report = await runImport(vault, await inputsFor(files), {
        onPublished: async (ids) => void published.push(...ids.conversationIds),
      });
      const deps = { vault, neighbours: termNeighbours(vault), llm: () => llm };
      const conversations: ConversationOut[] = [];
      for (const id of published) {
        const { result, notes } = await extractAndStore(deps, id);
        const conversation = await vault.conversations.get(id);
        conversations.push({
          conversationId: id,
          title: conversation?.title ?? '',
          messages: (await visibleThread(vault, id)).length,
          run: result,
          candidates: await describeNotes(vault, notes),
        });
      }
      const extractor = llm ? `${llm.id} (rule-based where it failed)` : 'rule-based';
      const messages = conversations.reduce((n, c) => n + c.messages, 0);
      const candidates = conversations.reduce((n, c) => n + c.candidates.length, 0);
      const perMessage = messages === 0 ? 0 : Math.round((candidates / messages) * 100) / 100;
      const json = { extractor, importStatus: report.status, messages, candidates, candidatesPerMessage: perMessage, conversations };
      return { json, text: textReport(conversations, extractor), exitCode: report.status === 'done' ? 0 : 1 };
    } finally {
      vault.db.close();
    }
  },
};
