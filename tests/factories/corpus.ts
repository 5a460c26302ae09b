/**
 * Real-text corpora for index benchmarks: LoCoMo turns and MemoryBank dialogue turns from
 * ../shared/data (read-only, never copied into the repo), repeated with seeded variation to reach
 * 10k or 100k chunks, plus the LoCoMo questions with their evidence turns for retrieval quality.
 */
import { seededRng } from './rng';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusDoc {
  id: string;
  /** What an index reads: date, speaker and turn text (like a chunk's contextText). */
  text: string;
}

export interface EvidenceQuestion {
  question: string;
  /** Ids of the corpus documents that hold the answer. */
  evidence: string[];
  category: number;
}

export interface Corpus {
  docs: CorpusDoc[];
  questions: EvidenceQuestion[];
  /** How many documents are original turns (the rest are variations). */
  base: number;
}

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}
interface MemoryBankUser {
  name: string;
  history: Record<string, { query: string; response: string }[]>;
}

export function locomoPath(dataDir: string): string {
  return join(dataDir, 'locomo', 'locomo-dev.json');
}
export function memoryBankPath(dataDir: string): string {
  return join(dataDir, 'memorybank', 'memory_bank_en.json');
}

/** Null (with the reason) when the shared data is absent: callers skip and say so. */
export function missingData(dataDir: string): string | null {
  for (const path of [locomoPath(dataDir), memoryBankPath(dataDir)]) if (!existsSync(path)) return `data not found: ${path}`;
  return null;
}

export function loadLocomo(dataDir: string): { docs: CorpusDoc[]; questions: EvidenceQuestion[] } {
  const samples = JSON.parse(readFileSync(locomoPath(dataDir), 'utf8')) as LocomoSample[];
  const docs: CorpusDoc[] = [];
  const questions: EvidenceQuestion[] = [];
  for (const sample of samples) {
    const ids = new Set<string>();
    for (const [key, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/u.test(key) || !Array.isArray(value)) continue;
      const date = String(sample.conversation[`${key}_date_time`] ?? '');
      for (const turn of value as LocomoTurn[]) {
        const id = `${sample.sample_id}:${turn.dia_id}`;
        ids.add(id);
        docs.push({ id, text: `${date} — ${turn.speaker}: ${turn.text}` });
      }
    }
    for (const qa of sample.qa) {
      // Category 5 is adversarial (a false premise): not a retrieval question.
      if (qa.category === 5) continue;
      const evidence = (qa.evidence ?? [])
        .flatMap((e) => e.split(/[;,\s]+/u))
        .map((e) => `${sample.sample_id}:${e}`)
        .filter((id) => ids.has(id));
      if (evidence.length > 0) questions.push({ question: qa.question, evidence, category: qa.category });
    }
  }
  return { docs, questions };
}

export function loadMemoryBank(dataDir: string): CorpusDoc[] {
  const users = JSON.parse(readFileSync(memoryBankPath(dataDir), 'utf8')) as Record<string, MemoryBankUser>;
  const docs: CorpusDoc[] = [];
  for (const [key, user] of Object.entries(users)) {
    for (const [date, turns] of Object.entries(user.history)) {
      turns.forEach((turn, i) => {
        docs.push({ id: `mb:${key}:${date}:${i}:q`, text: `${date} — ${user.name}: ${turn.query}` });
        docs.push({ id: `mb:${key}:${date}:${i}:r`, text: `${date} — AI companion: ${turn.response}` });
      });
    }
  }
  return docs;
}

const NAMES = [
  'Priya',
  'Jonas',
  'Amara',
  'Tomasz',
  'Keiko',
  'Diego',
  'Fatima',
  'Lars',
  'Noor',
  'Mateo',
  'Ingrid',
  'Kwame',
  'Sofia',
  'Ravi',
  'Elena',
  'Hugo',
];
const SPEAKER = /— .+$/u;

/**
 * A variation of a document: the speaker renamed, sentences shuffled, about one word in ten
 * dropped, and a sentence of another document appended, so copies are related but not equal.
 */
function vary(doc: CorpusDoc, other: CorpusDoc, rng: () => number): string {
  const name = NAMES[Math.floor(rng() * NAMES.length)]!;
  const [head, ...rest] = doc.text.split(': ');
  const body = rest.join(': ');
  const sentences = body.split(/(?<=[.!?])\s+/u).filter(Boolean);
  for (let i = sentences.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [sentences[i], sentences[j]] = [sentences[j]!, sentences[i]!];
  }
  const words = sentences
    .join(' ')
    .split(' ')
    .filter(() => rng() > 0.1);
  const extra =
    other.text
      .split(': ')
      .slice(1)
      .join(': ')
      .split(/(?<=[.!?])\s+/u)[0] ?? '';
  return `${head!.replace(SPEAKER, `— ${name}`)}: ${words.join(' ')} ${extra}`.trim();
}

/** `size` documents: every original turn once (ids kept), then seeded variations. */
export function buildCorpus(dataDir: string, size: number, seed = 42): Corpus {
  const locomo = loadLocomo(dataDir);
  const originals = [...locomo.docs, ...loadMemoryBank(dataDir)];
  const rng = seededRng(seed);
  const docs = originals.slice(0, size);
  for (let n = docs.length; n < size; n++) {
    const source = originals[n % originals.length]!;
    const other = originals[Math.floor(rng() * originals.length)]!;
    docs.push({ id: `${source.id}~${Math.floor(n / originals.length)}`, text: vary(source, other, rng) });
  }
  const present = new Set(docs.map((d) => d.id));
  const questions = locomo.questions.filter((q) => q.evidence.every((id) => present.has(id)));
  return { docs, questions, base: Math.min(size, originals.length) };
}

/** Mean over questions of the share of their evidence found in the top-k ids. */
export function evidenceRecall(questions: readonly EvidenceQuestion[], results: readonly (readonly string[])[], k = 10): number {
  let sum = 0;
  questions.forEach((q, i) => {
    const top = new Set(results[i]!.slice(0, k));
    sum += q.evidence.filter((id) => top.has(id)).length / q.evidence.length;
  });
  return questions.length ? sum / questions.length : NaN;
}

/** The seeded generator under the name the index tests and benches use. */
export { seededRng as mulberry32 } from './rng';
