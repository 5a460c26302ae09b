/**
 * The recall benchmark's large vault: the index benchmarks' real-text corpus (LoCoMo and MemoryBank
 * turns, repeated with seeded variation up to the size asked) cut into conversations of 20 turns in
 * corpus order, with named speakers and one date per conversation, imported through the app's
 * importer and indexed by the app's index service, so a query at 100k chunks pays for the same index
 * as a real vault's.
 */
import type { ParsedConversation } from '../../src/lib/core/import/parsed';
import { buildCorpus, mulberry32, type Corpus } from '../factories/corpus';

const TURNS_PER_CONVERSATION = 20;
const DATE_SPEAKER = /^(.*?) — ([^:]+): ([\s\S]*)$/u;
const DAY = 86_400_000;

function parseDoc(text: string): { speaker: string; text: string } {
  const m = DATE_SPEAKER.exec(text);
  return m ? { speaker: m[2]!, text: m[3]! } : { speaker: 'User', text };
}

/** Conversations of a corpus of `size` documents, and the corpus (its LoCoMo questions are the queries). */
export function benchConversations(dataDir: string, size: number): { conversations: ParsedConversation[]; corpus: Corpus } {
  const corpus = buildCorpus(dataDir, size);
  const conversations: ParsedConversation[] = [];
  const start = Date.UTC(2023, 0, 1);
  for (let c = 0; c * TURNS_PER_CONVERSATION < corpus.docs.length; c++) {
    const docs = corpus.docs.slice(c * TURNS_PER_CONVERSATION, (c + 1) * TURNS_PER_CONVERSATION);
    const createdAt = start + (c % 730) * DAY;
    let parent: string | null = null;
    conversations.push({
      source: 'transcript',
      externalId: `bench-${c}`,
      title: `Conversation ${c + 1}`,
      createdAt,
      updatedAt: createdAt,
      notes: [],
      messages: docs.map((doc, ordinal) => {
        const { speaker, text } = parseDoc(doc.text);
        const message = {
          externalId: doc.id,
          role: ordinal % 2 === 0 ? ('user' as const) : ('assistant' as const),
          speaker,
          text,
          createdAt,
          parentExternalId: parent,
          onVisiblePath: true,
          hidden: false,
        };
        parent = doc.id;
        return message;
      }),
    });
  }
  return { conversations, corpus };
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
