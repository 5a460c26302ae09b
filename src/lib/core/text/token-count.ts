/**
 * The one token counter (DESIGN: "tokens are counted after structural chunking"): chunk sizes,
 * extraction windows and the recall package's budget all count here. Uses the o200k_base encoding
 * of `gpt-tokenizer` (GPT-4o / GPT-5): for other model families an estimate, close enough for a
 * budget (the 75-80 % window target leaves the margin).
 *
 * The encoding's table is about 0.95 MB gzip, more than half of what a first visit would download
 * (docs/BUNDLE.md), and an empty vault counts no tokens. So it loads on demand: every path that
 * chunks, cuts extraction windows or assembles a budget awaits `loadTokenCounter()` first (the
 * index service before chunking and before reading recall candidates, the recall service, the
 * extraction job, the CLI at start); after that `countTokens` is synchronous. Counting before the
 * load is a programming error and throws (never a silent estimate: stored token counts must not
 * depend on timing).
 */
import { fail } from '../errors';

export type TokenCounter = (text: string) => number;

type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// Text from an archive may contain strings such as `<|endoftext|>`: count them as plain text, so
// counting never throws (the library's default rejects them with "Disallowed special token").
const PLAIN = { disallowedSpecial: new Set<string>() };

let counter: Counter | null = null;
let loading: Promise<void> | null = null;

/** Loads the tokenizer once per realm (a dynamic import: its own chunk in the app's build). */
export function loadTokenCounter(): Promise<void> {
  loading ??= import('gpt-tokenizer').then(
    (module) => {
      counter = module.countTokens;
    },
    (error: unknown) => {
      // A failed load (offline before the chunk was cached) may be retried by the next caller.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Whether `countTokens` can be called now. */
export const tokenCounterLoaded = (): boolean => counter !== null;

export const countTokens: TokenCounter = (text) => {
  if (text.length === 0) return 0;
  if (!counter) fail('index/failed', 'The token counter is not loaded yet (await loadTokenCounter() before counting).');
  return counter(text, PLAIN);
};
