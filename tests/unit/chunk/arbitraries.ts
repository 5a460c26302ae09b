/**
 * fast-check generators of Markdown-ish chat texts whose sentences, code blocks and headings are
 * known (ground truth with offsets), to check chunking invariants against.
 */
import fc from 'fast-check';

export interface Atom {
  kind: 'sentence' | 'code' | 'heading';
  start: number;
  end: number;
  level?: number;
  title?: string;
}

export interface GeneratedText {
  text: string;
  atoms: Atom[];
}

const WORDS = ['garden', 'maple', 'budget', 'river', 'kyoto', 'moss', 'stone', 'lantern', 'tea', 'path', 'water', 'pine'];
const TRICKY = ['Dr. Smith', 'e.g. this', '3.14', 'v2.0', 'example.com/a.b', 'the U.S. plan', 'approx. ten', '(see notes)'];
const TITLES = ['Overview', 'Design', 'Plants', 'Water', 'Stones', 'Budget', 'Next steps'];

const word = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.constantFrom(...TRICKY) });

export const sentenceArb = fc
  .tuple(
    fc.constantFrom(...WORDS),
    fc.array(word, { minLength: 0, maxLength: 12 }),
    fc.constantFrom(...WORDS),
    fc.constantFrom('.', '!', '?'),
  )
  .map(([first, middle, last, end]) => `${first[0]!.toUpperCase()}${first.slice(1)} ${[...middle, last].join(' ')}${end}`);

type Block =
  | { type: 'para'; sentences: string[] }
  | { type: 'list'; sentences: string[] }
  | { type: 'code'; lines: string[] }
  | { type: 'heading'; level: number; title: string };

const blockArb: fc.Arbitrary<Block> = fc.oneof(
  { weight: 4, arbitrary: fc.array(sentenceArb, { minLength: 1, maxLength: 5 }).map((s) => ({ type: 'para' as const, sentences: s })) },
  { weight: 2, arbitrary: fc.array(sentenceArb, { minLength: 1, maxLength: 7 }).map((s) => ({ type: 'list' as const, sentences: s })) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom('const a = 1.5;', 'x.y(). z', '# not a heading', 'Stop. Go on.', '', '- not a bullet'), {
        minLength: 1,
        maxLength: 6,
      })
      .map((lines) => ({ type: 'code' as const, lines })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(...TITLES))
      .map(([level, title]) => ({ type: 'heading' as const, level, title })),
  },
);

/** Renders blocks into text, recording every atom's offsets. */
export function render(blocks: readonly Block[]): GeneratedText {
  let text = '';
  const atoms: Atom[] = [];
  const add = (s: string, atom?: Omit<Atom, 'start' | 'end'>) => {
    if (atom) atoms.push({ ...atom, start: text.length, end: text.length + s.length });
    text += s;
  };
  blocks.forEach((block, i) => {
    if (i > 0) add('\n\n');
    if (block.type === 'heading')
      add(`${'#'.repeat(block.level)} ${block.title}`, { kind: 'heading', level: block.level, title: block.title });
    if (block.type === 'para') block.sentences.forEach((s, j) => (add(j > 0 ? ' ' : ''), add(s, { kind: 'sentence' })));
    if (block.type === 'list') block.sentences.forEach((s, j) => (add(j > 0 ? '\n' : ''), add(`- ${s}`, { kind: 'sentence' })));
    if (block.type === 'code') add(['```', ...block.lines, '```'].join('\n'), { kind: 'code' });
  });
  return { text, atoms };
}

export const textArb: fc.Arbitrary<GeneratedText> = fc.array(blockArb, { minLength: 1, maxLength: 14 }).map(render);

/** Reference heading path of the deepest section containing [start, end), computed from atoms. */
export function referencePath(atoms: readonly Atom[], textLength: number, start: number, end: number): string[] {
  const headings = atoms.filter((a) => a.kind === 'heading');
  const sections = headings.map((h, i) => {
    const closer = headings.slice(i + 1).find((n) => n.level! <= h.level!);
    const stack: Atom[] = [];
    for (const prev of headings.slice(0, i + 1)) {
      while (stack.length && stack[stack.length - 1]!.level! >= prev.level!) stack.pop();
      stack.push(prev);
    }
    return { start: h.start, end: closer ? closer.start : textLength, path: stack.map((s) => s.title!) };
  });
  const containing = sections.filter((s) => s.start <= start && end <= s.end);
  return containing.length ? containing[containing.length - 1]!.path : [];
}

/** A whitespace word count: additive over sentences, so budgets can be checked exactly. */
export const wordCount = (text: string): number => text.split(/\s+/u).filter(Boolean).length;
