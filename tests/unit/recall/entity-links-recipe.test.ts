/**
 * LINK_RECIPE names what `chunkMentions` gives: a load reads the saved entity graph back only when
 * it was linked by the same recipe (documents-snapshot.ts). This pins the linker's output over the
 * labelled extraction corpus (every turn, as a chunk with its speaker line). When the linker's
 * output changes, this fails: bump LINK_RECIPE in entity-links.ts and set PINNED to the new digest
 * (saved graphs of the old recipe are then read again from the chunks, once). If only the corpus
 * changed (turns added to tests/fixtures/extraction), set the digest and keep the recipe.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkMentions, LINK_RECIPE } from '../../../src/lib/services/index/entity-links';

const PINNED = { recipe: 'link-4', digest: 'bdc52843d18602527c70e951b97c02636cd288862583ec514b8d82fc9e1fa253' };

const corpus = join(import.meta.dirname, '../../fixtures/extraction');

function turns(): { text: string; contextText: string }[] {
  const out: { text: string; contextText: string }[] = [];
  for (const split of ['train', 'heldout']) {
    for (const file of readdirSync(join(corpus, split)).sort()) {
      if (!file.endsWith('.json')) continue;
      const chat = JSON.parse(readFileSync(join(corpus, split, file), 'utf8')) as {
        title: string;
        turns: { role: string; text: string }[];
      };
      for (const turn of chat.turns) {
        const speaker = turn.role === 'user' ? 'Ana' : 'assistant';
        out.push({ text: turn.text, contextText: `${chat.title}\n${speaker}: ${turn.text}` });
      }
    }
  }
  return out;
}

describe('the entity linker recipe', () => {
  it('moves with the linker output: bump LINK_RECIPE and the digest together', () => {
    const inputs = turns();
    expect(inputs.length).toBeGreaterThan(300);
    const mentions = inputs.map((chunk) => chunkMentions(chunk));
    expect(mentions.flat().length).toBeGreaterThan(100);
    const digest = createHash('sha256').update(JSON.stringify(mentions)).digest('hex');
    expect({ recipe: LINK_RECIPE, digest }).toEqual(PINNED);
  });
});
