/**
 * Golden queries over the real chat-export samples in ../shared/data/exports (every file imported
 * into one vault through the importer, indexed by the index service, asked through the recall
 * service with the app's defaults): the expected first item of each prompt, written by reading the
 * samples, and an off-topic prompt that must get "the vault holds nothing on this".
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports } from '../../../src/cli/recall/exports-vault';
import { openInProcessIndex } from '../../../src/lib/services/index/in-process';

const EXPORTS = resolve(process.cwd(), '../shared/data/exports');
const haveExports = existsSync(EXPORTS);
if (!haveExports) console.warn(`Chat-export samples not found at ${EXPORTS}: the golden queries are skipped.`);

/** Prompt -> what the first item must be (its source title, and words of its text). */
const GOLDEN: { prompt: string; title: RegExp; text?: RegExp }[] = [
  { prompt: 'How do I roll back the staging deploy?', title: /Deploying the staging cluster/u },
  { prompt: 'Something with anchovies for a weeknight pasta?', title: /Weeknight pasta/u, text: /Puttanesca/u },
  { prompt: 'What should the indexes be in the multi-tenant database schema?', title: /Database Schema Review/u },
  { prompt: 'How can I make my Python data filtering faster?', title: /optimize Python code/u },
  { prompt: "What's the weather in Paris?", title: /Chat with tool call/u, text: /get_weather/u },
  { prompt: 'What is a good name for a grey cat who likes boxes?', title: /grey cat/u },
  { prompt: 'How do neural networks learn?', title: /neural networks/u, text: /learn/u },
  { prompt: 'What is 15 times 17?', title: /Chat with reasoning/u, text: /255/u },
];

describe('golden queries over the chat-export samples', () => {
  it.skipIf(!haveExports)(
    'finds the expected first item for each prompt, and holds nothing on an off-topic one',
    async () => {
      // The JSON Schema file among the samples is not an export: the import reports "partial".
      const { vault } = await importExports(EXPORTS);
      const index = await openInProcessIndex(vault);
      await index.runJobs();
      const recaller = index.recaller();
      const firsts: string[] = [];
      for (const golden of GOLDEN) {
        const answer = await recaller.answer({ prompt: golden.prompt }, { writeBack: false });
        if (!answer.ok) throw new Error(answer.error.message);
        const first = answer.value.result.items[0];
        firsts.push(`${golden.prompt} -> ${first?.record.sourceTitle ?? 'nothing'}`);
        expect(first?.record.sourceTitle ?? '', golden.prompt).toMatch(golden.title);
        if (golden.text) expect(first!.record.text, golden.prompt).toMatch(golden.text);
      }
      const off = await recaller.answer({ prompt: 'How do I tune the PID loop of my espresso machine?' }, { writeBack: false });
      if (!off.ok) throw new Error(off.error.message);
      expect(off.value.result.holdsNothing).toMatchObject({ emptyAt: 'relevance' });
      expect(off.value.package.text).toBe('');
      console.info('golden queries over the export samples:', firsts.join(' | '));
      index.close();
      await vault.db.delete();
    },
    120_000,
  );
});
