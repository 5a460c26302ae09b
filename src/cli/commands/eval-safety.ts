import { readFile } from 'node:fs/promises';
import { evalInjection, isInjectionCorpus, type InjectionEvalReport } from '../../lib/core/safety/eval/injection-eval';
import { evalSecrets, isSecretsCorpus, type SecretsEvalReport } from '../../lib/core/safety/eval/secrets-eval';
import { redactSecrets } from '../../lib/core/safety/redact-secrets';
import { applyWriteSafety } from '../../lib/core/safety/write-safety';
import { UsageError, type CommandResult } from '../command';

/** The corpora the repository ships (tests/fixtures), found from this file so any cwd works. */
export const DEFAULT_SECRETS_CORPUS = new URL('../../../tests/fixtures/secrets/corpus.json', import.meta.url);
export const DEFAULT_INJECTION_CORPUS = new URL('../../../tests/fixtures/injection/corpus.json', import.meta.url);

export const EVAL_SAFETY_USAGE = 'eval secrets [<corpus.json>] [--json] | eval injection [<corpus.json>] [--json]';

async function readJson(path: string | URL): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new UsageError(`Cannot read the corpus ${String(path)}: ${(error as Error).message}`);
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The product's write-time redaction, measured as stored text sees it. */
export function productRedact(text: string): string {
  return redactSecrets(text).text;
}

/** The product's write-time judgement: a text is flagged when any of its lines is. */
export function productFlagsInjection(text: string): boolean {
  return applyWriteSafety(text).flags.some((flag) => flag.startsWith('injection:'));
}

export async function runEvalSecrets(file: string | undefined): Promise<CommandResult> {
  const corpus = await readJson(file ?? DEFAULT_SECRETS_CORPUS);
  if (!isSecretsCorpus(corpus)) throw new UsageError('The file is not a secrets corpus ({ secrets: [...], benign: [...] }).');
  const report = evalSecrets(corpus, productRedact, 'engram');
  return { json: secretsJson(report), text: secretsText(report) };
}

export async function runEvalInjection(file: string | undefined): Promise<CommandResult> {
  const corpus = await readJson(file ?? DEFAULT_INJECTION_CORPUS);
  if (!isInjectionCorpus(corpus)) throw new UsageError('The file is not an injection corpus ({ attacks: [...], benign: [...] }).');
  const report = evalInjection(corpus, productFlagsInjection);
  return { json: report, text: injectionText(report) };
}

/** The shape the issue names first ({ recall, falsePositiveRate, missed, byKind }), then the detail. */
function secretsJson(r: SecretsEvalReport) {
  const { recall, falsePositiveRate, missed, byKind, ...rest } = r;
  return { recall, falsePositiveRate, missed, byKind, ...rest };
}

function secretsText(r: SecretsEvalReport): string {
  return [
    `Secrets (${r.redactor}): recall ${pct(r.recall)} over ${r.cases} cases in ${Object.keys(r.byKind).length} kinds; false positives ${pct(r.falsePositiveRate)} over ${r.benign} look-alikes.`,
    ...(r.missed.length ? [`Missed kinds: ${r.missed.join(', ')}`] : []),
    ...r.missedCases.map((c) => `  missed ${c.id} ${c.kind} (${c.form})`),
    ...r.falsePositives.map((c) => `  false positive ${c.id} ${c.category}: ${JSON.stringify(c.text.slice(0, 80))}`),
  ].join('\n');
}

function injectionText(r: InjectionEvalReport): string {
  return [
    `Injection: detection ${pct(r.detection)} over ${r.attacks} attempts; false flags ${pct(r.falseFlagRate)} over ${r.benign} benign lines.`,
    ...Object.entries(r.byTechnique).map(([t, s]) => `  ${t.padEnd(16)} ${s.detected}/${s.cases}`),
    ...r.missedCases.map((c) => `  missed ${c.id} ${c.technique}: ${JSON.stringify(c.text.slice(0, 80))}`),
    ...r.falseFlags.map((c) => `  false flag ${c.id} ${c.category}: ${JSON.stringify(c.text.slice(0, 80))}`),
  ].join('\n');
}
