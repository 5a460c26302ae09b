/**
 * The measurement behind the redaction choice (docs/SECURITY.md): secretlint's recommended preset,
 * the app's own rules, and both together, scored on the same corpus with the same scorer as
 * `engram eval secrets`. Also the redaction speed of each on chat-like text (CPU time; the
 * machine may be shared, so compare the columns, not the absolute figures).
 *
 *   npx tsx scripts/eval-secretlint.ts [corpus.json] [--json]
 */
import { readFileSync } from 'node:fs';
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { evalSecrets, isSecretsCorpus, type SecretsEvalReport } from '../src/lib/core/safety/eval/secrets-eval';
import { redactSecrets } from '../src/lib/core/safety/redact-secrets';
import { seededRng } from '../tests/factories/rng';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? 'tests/fixtures/secrets/corpus.json';
const corpus = JSON.parse(readFileSync(file, 'utf8')) as unknown;
if (!isSecretsCorpus(corpus)) throw new Error(`${file} is not a secrets corpus`);

const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/** Secretlint's findings as character ranges (it reports, it does not redact). */
async function secretlintRanges(text: string): Promise<[number, number][]> {
  const result = await lintSource({
    source: { filePath: '/chat.txt', content: text, contentType: 'text' },
    options: { config, maskSecrets: false },
  });
  return result.messages.map((m) => m.range as [number, number]);
}

function cut(text: string, ranges: readonly [number, number][]): string {
  let out = text;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)}[REDACTED:secretlint]${out.slice(end)}`;
  return out;
}

// lintSource is async; the scorer is sync: precompute every text's findings.
const texts = [...corpus.secrets.map((c) => c.text), ...corpus.benign.map((c) => c.text)];
const found = new Map<string, [number, number][]>();
for (const text of texts) found.set(text, await secretlintRanges(text));

const secretlintOnly = (text: string) => cut(text, found.get(text) ?? []);
const own = (text: string) => redactSecrets(text).text;
/** Both: secretlint's ranges first, then the app's rules on what is left. */
const both = (text: string) => own(secretlintOnly(text));

const reports: SecretsEvalReport[] = [
  evalSecrets(corpus, secretlintOnly, 'secretlint preset-recommend 13.1.0'),
  evalSecrets(corpus, own, 'engram rules'),
  evalSecrets(corpus, both, 'both'),
];

// Speed on chat-like text: 2 MB of prose with a secret every 50 messages.
const rng = seededRng(3);
const words = 'the garden maple token password key budget deploy index query export import "quoted" naïve 2024 café'.split(' ');
const chat: string[] = [];
for (let i = 0; i < 4000; i++) {
  const n = 20 + Math.floor(rng() * 150);
  const line = Array.from({ length: n }, () => words[Math.floor(rng() * words.length)]).join(' ');
  chat.push(i % 50 === 0 ? `${line}\n${corpus.secrets[i % corpus.secrets.length]!.text}` : line);
}
const cpu = async (fn: (t: string) => unknown) => {
  const start = process.cpuUsage();
  for (const text of chat) await fn(text);
  const used = process.cpuUsage(start);
  return Math.round((used.user + used.system) / 1000);
};
const chars = chat.reduce((sum, t) => sum + t.length, 0);
const speed = { chars, ownCpuMs: await cpu(own), secretlintCpuMs: await cpu(secretlintRanges) };

if (args.includes('--json')) console.log(JSON.stringify({ reports, speed }, null, 2));
else {
  for (const r of reports) {
    console.log(`${r.redactor}: recall ${(r.recall * 100).toFixed(1)} %, false positives ${(r.falsePositiveRate * 100).toFixed(1)} %`);
    console.log(`  missed kinds (${r.missed.length}): ${r.missed.join(', ')}`);
  }
  console.log(
    `speed on ${(chars / 1e6).toFixed(1)} M chars of chat: engram ${speed.ownCpuMs} ms CPU, secretlint ${speed.secretlintCpuMs} ms CPU`,
  );
}
