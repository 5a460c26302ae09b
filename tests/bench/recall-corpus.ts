/**
 * The recall benchmark's large vault: the index benchmarks' real-text corpus (LoCoMo and MemoryBank
 * turns, repeated with seeded variation up to the size asked) cut into conversations of 20 turns in
 * corpus order, chunked and windowed by the engine's own unit builder, so a query at 100k chunks
 * pays for the same index text as a real vault's.
 */
import type { ChunkMessage } from '../../src/lib/core/chunk/conversation-chunker';
import { buildCorpus, mulberry32, type Corpus } from '../factories/corpus';
import { conversationUnits, DEFAULT_UNIT_OPTIONS, type IndexUnit } from '../../workers/recall/units';

const TURNS_PER_CONVERSATION = 20;
const DATE_SPEAKER = /^(.*?) — ([^:]+): ([\s\S]*)$/u;
const DAY = 86_400_000;

function parseDoc(text: string): { speaker: string; text: string } {
  const m = DATE_SPEAKER.exec(text);
  return m ? { speaker: m[2]!, text: m[3]! } : { speaker: 'User', text };
}

/** Units of a corpus of `size` documents, and the LoCoMo questions (categories 1-4) as queries. */
export function benchUnits(dataDir: string, size: number): { units: IndexUnit[]; corpus: Corpus } {
  const corpus = buildCorpus(dataDir, size);
  const units: IndexUnit[] = [];
  const start = Date.UTC(2023, 0, 1);
  for (let c = 0; c * TURNS_PER_CONVERSATION < corpus.docs.length; c++) {
    const docs = corpus.docs.slice(c * TURNS_PER_CONVERSATION, (c + 1) * TURNS_PER_CONVERSATION);
    const createdAt = start + (c % 730) * DAY;
    const messages: ChunkMessage[] = docs.map((doc, ordinal) => {
      const { speaker, text } = parseDoc(doc.text);
      return { id: doc.id, role: ordinal % 2 === 0 ? 'user' : 'assistant', text, createdAt, ordinal, speaker };
    });
    units.push(...conversationUnits({ id: `bench-${c}`, title: `Conversation ${c + 1}`, createdAt }, messages, DEFAULT_UNIT_OPTIONS));
  }
  return { units, corpus };
}

/** `n` questions drawn without replacement by a seeded generator (the same on every run). */
export function sampleQuestions(corpus: Corpus, n: number, seed = 7): string[] {
  const rng = mulberry32(seed);
  const pool = corpus.questions.map((q) => q.question);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}
