import { vaultError, VaultFailure } from '../../lib/core/errors';
import { resolveTarget } from '../../lib/core/recall/model-windows';
import { LexicalEmbedder } from '../../lib/models/lexical-embedder';
import { AUTO_HNSW_ABOVE, RecallEngine } from '../../../workers/recall/engine';
import { vaultUnits } from '../../../workers/recall/vault-units';
import { UsageError, type Command } from '../command';
import { passphraseFromEnv } from './vault-file';
import { oneOf, parseCommandArgs } from '../recall/args';
import { loadHnswlibQuietly } from '../recall/hnswlib-node';
import { recallJson, recallText } from '../recall/recall-output';
import { openRecallSource, type RecallSource } from '../recall/recall-source';

function targetOf(value: string | undefined): string | number {
  if (value === undefined) return 'gpt-4o';
  const target = /^\d+$/u.test(value) ? Number(value) : value;
  if (!resolveTarget(target))
    throw new UsageError(`--target is a model preset (e.g. gpt-4o, local-4k) or a window of at least 256 tokens.`);
  return target;
}

/** Recall from export files (a fresh in-memory vault) and print the context package. */
export const recallCommand: Command = {
  name: 'recall',
  summary: 'Import export files into a fresh in-memory vault, recall for a prompt and print the context package.',
  usage:
    'recall "<prompt>" <export files...> [--json] [--format markdown|xml] [--target <model>|<tokens>] [--intent "..."] [--no-funnel] [--vectors exact|hnsw|auto]\n' +
    '  or: recall "<prompt>" --vault FILE.engram [--passphrase-env VAR] [options]: recall from a stored vault file instead',
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, {
      format: { type: 'string' },
      target: { type: 'string' },
      intent: { type: 'string' },
      'no-funnel': { type: 'boolean' },
      vectors: { type: 'string' },
      vault: { type: 'string' },
      'passphrase-env': { type: 'string' },
    });
    const [prompt, ...paths] = positionals;
    if (!prompt?.trim()) throw new UsageError('Give the prompt to recall for (in quotes).');
    if (paths.length === 0 && values.vault === undefined) throw new UsageError('Name at least one export file or folder.');
    const format = oneOf(values.format, ['markdown', 'xml'] as const, 'markdown', 'format');
    const vectors = oneOf(values.vectors, ['exact', 'hnsw', 'auto'] as const, 'auto', 'vectors');
    const target = targetOf(values.target);
    const source: RecallSource =
      values.vault !== undefined
        ? { kind: 'vault-file', path: values.vault, passphrase: passphraseFromEnv(values['passphrase-env']) }
        : { kind: 'exports', paths };
    const opened = await openRecallSource(source);
    try {
      if (opened.report && opened.report.status === 'failed') {
        throw new VaultFailure(
          vaultError('import/failed', 'No export file could be imported.', opened.report.files.map((f) => f.errors).flat()),
        );
      }
      const units = await vaultUnits(opened.vault);
      if (vectors === 'hnsw' || (vectors === 'auto' && units.length > AUTO_HNSW_ABOVE)) await loadHnswlibQuietly();
      const engine = await RecallEngine.create({ embedder: new LexicalEmbedder(), vectors, capacity: units.length });
      await engine.add(units);
      const outcome = await engine.recall(
        { prompt, ...(values.intent ? { intent: values.intent } : {}) },
        { funnel: values['no-funnel'] !== true, package: { target, format } },
      );
      if (!outcome.ok) throw new VaultFailure(outcome.error);
      // What the vault holds (an export source's vault holds exactly what its import stored).
      const ctx = {
        embedder: engine.embedder.id,
        vectors: engine.vectors.kind,
        target: String(target),
        vault: {
          conversations: await opened.vault.conversations.countVisible(),
          messages: await opened.vault.conversations.countMessages(),
          units: units.length,
        },
      };
      return { json: recallJson(outcome.value, ctx), text: recallText(outcome.value, ctx) };
    } finally {
      await opened.close();
    }
  },
};
