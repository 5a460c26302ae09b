import { vaultError, VaultFailure } from '../../lib/core/errors';
import { resolveTarget } from '../../lib/core/recall/model-windows';
import { openInProcessIndex } from '../../lib/services/index/in-process';
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

/**
 * Recall from export files (a fresh in-memory vault) or a vault file and print the context package:
 * the app's index service builds the index, the app's recall service answers.
 */
export const recallCommand: Command = {
  name: 'recall',
  summary: 'Import export files into a fresh in-memory vault, recall for a prompt and print the context package.',
  usage:
    'recall "<prompt>" <export files...> [--json] [--format markdown|xml] [--target <model>|<tokens>] [--intent "..."] [--no-funnel] [--vectors exact|hnsw|auto] [--flagged-lines drop|quote] [--hints]\n' +
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
      'flagged-lines': { type: 'string' },
      hints: { type: 'boolean' },
    });
    const [prompt, ...paths] = positionals;
    if (!prompt?.trim()) throw new UsageError('Give the prompt to recall for (in quotes).');
    if (paths.length === 0 && values.vault === undefined) throw new UsageError('Name at least one export file or folder.');
    const format = oneOf(values.format, ['markdown', 'xml'] as const, 'markdown', 'format');
    const vectors = oneOf(values.vectors, ['exact', 'hnsw', 'auto'] as const, 'hnsw', 'vectors');
    const target = targetOf(values.target);
    // A line flagged as possible prompt injection: left out with a marker (default) or kept quoted.
    const flaggedLines = oneOf(values['flagged-lines'], ['drop', 'quote'] as const, 'drop', 'flagged-lines');
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
      await loadHnswlibQuietly();
      const index = await openInProcessIndex(opened.vault, { vectorSearch: vectors });
      try {
        // The hints (question per unit, their own keyword index) are off unless asked: recall README, "Hints".
        const hints = values.hints === true;
        await index.runJobs({ hints });
        const outcome = await index
          .recaller()
          .answer(
            { prompt, ...(values.intent ? { intent: values.intent } : {}) },
            { funnel: values['no-funnel'] !== true, hints, package: { target, format, flaggedLines } },
          );
        if (!outcome.ok) throw new VaultFailure(outcome.error);
        // What the vault holds (an export source's vault holds exactly what its import stored).
        const ctx = {
          embedder: outcome.value.embedderId,
          vectors,
          target: String(target),
          vault: {
            conversations: await opened.vault.conversations.countVisible(),
            messages: await opened.vault.conversations.countMessages(),
            units: outcome.value.documents,
          },
        };
        return { json: recallJson(outcome.value, ctx), text: recallText(outcome.value, ctx) };
      } finally {
        index.close();
      }
    } finally {
      await opened.close();
    }
  },
};
