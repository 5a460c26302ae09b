import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/lib/core/index/bm25';
import { applyRelevance, runFunnel } from '../../../src/lib/core/recall/funnel';
import {
  aboutNamed,
  checkSubject,
  namedOnlyAsFriendOwner,
  namedPersons,
  namesAsSubject,
  statementSubjects,
} from '../../../src/lib/core/recall/subject-check';
import { termCoverage } from '../../../src/lib/core/recall/term-coverage';
import { unframe } from '../../../src/lib/core/recall/text-features';
import type { ScoredCandidate } from '../../../src/lib/core/recall/types';
import { scored } from '../../factories/recall';

const floor = { value: -1, embedderId: 'test', derivation: 'test' };

/** A small vault: irrigation, a trip and a cat's diet (the new user). */
const VAULT: [string, string][] = [
  ['irrigation-1', 'We picked SQLite for the irrigation schedules because the controller has no server.'],
  ['irrigation-2', 'The irrigation controller waters the beds at six in the morning.'],
  ['irrigation-3', 'Drip lines for the tomato beds need a pressure reducer.'],
  ['trip-1', 'The trip to Lisbon: train on Friday, hotel near the river.'],
  ['trip-2', 'Packing list for the trip: rain jacket, charger, passport.'],
  ['cat-1', 'The cat gets wet food twice a day and no more dry food.'],
  ['cat-2', 'The vet said the cat should lose some weight, so smaller portions.'],
  ['machine-1', 'The washing machine is loud again.'],
];

function judge(prompt: string) {
  const bm25 = new Bm25Index();
  for (const [id, text] of VAULT) bm25.add(id, text);
  const ids = VAULT.map(([id]) => id);
  const judgment = termCoverage(bm25.explain(unframe(prompt), ids));
  const candidates = VAULT.map(([id, text], i) => scored({ id, text }, 1 / (i + 1)));
  return { judgment, candidates };
}

describe('term coverage (the model-free relevance judgment)', () => {
  it('weighs each prompt word by its rarity in this vault; words the vault never uses weigh the most', () => {
    const { judgment } = judge('How do I tune the PID loop of my espresso machine?');
    expect(judgment.unknown).toEqual(expect.arrayContaining(['tune', 'pid', 'loop', 'espresso']));
    expect(judgment.best).toBeLessThan(0.2);
    expect(judgment.coverage.get('machine-1')).toBeCloseTo(judgment.best, 10);
    expect(judgment.coverage.get('cat-1')).toBe(0);
  });

  it('gives an on-topic prompt a high best coverage, highest for the memory that holds its rare words', () => {
    const { judgment } = judge('Which database did we pick for the irrigation schedules?');
    expect(judgment.best).toBeGreaterThan(0.6);
    const ranked = [...judgment.coverage].sort((a, b) => b[1] - a[1]);
    expect(ranked[0]![0]).toBe('irrigation-1');
    expect(judgment.coverage.get('irrigation-2')!).toBeLessThan(judgment.best);
  });
});

describe('relevance stage', () => {
  it('refuses when the best candidate holds less than refuseBelow, and says which words the vault never uses', async () => {
    const { judgment, candidates } = judge('How do I tune the PID loop of my espresso machine?');
    const out = await runFunnel(candidates, 'intent', {
      enabled: true,
      floor,
      relevance: { judgment, options: { refuseBelow: 0.3, keepRatio: 0 } },
    });
    expect(out.items).toEqual([]);
    expect(out.holdsNothing).toMatchObject({ emptyAt: 'relevance' });
    expect(out.holdsNothing!.message).toMatch(/never uses .*"espresso"/u);
    expect(out.relevance).toMatchObject({ ran: true, refuseBelow: 0.3 });
    expect(out.dropped.filter((d) => d.stage === 'relevance').length).toBe(candidates.length);
  });

  it('keeps an on-topic prompt and drops only candidates far below the best (keepRatio)', () => {
    const { judgment, candidates } = judge('Which database did we pick for the irrigation schedules?');
    const none = applyRelevance(candidates, { judgment, options: { refuseBelow: 0.3, keepRatio: 0 } });
    expect(none.kept).toHaveLength(candidates.length);
    const trimmed = applyRelevance(candidates, { judgment, options: { refuseBelow: 0.3, keepRatio: 0.5 } });
    expect(trimmed.kept.map((c) => c.record.id)).toContain('irrigation-1');
    expect(trimmed.kept.map((c) => c.record.id)).not.toContain('cat-1');
    expect(trimmed.dropped.every((d) => /of the best match/u.test(d.reason))).toBe(true);
    expect(trimmed.status).toMatchObject({ ran: true, dropped: trimmed.dropped.length });
  });

  it('spares what the floor dropped that BM25 found and the prompt holds, once the prompt is answerable', async () => {
    const { judgment } = judge('Which database did we pick for the irrigation schedules?');
    // irrigation-1 (the answer) and trip-2 (none of the prompt's words) fall under the floor;
    // irrigation-2 keeps the prompt answerable.
    const build = (answerFoundBy: 'bm25' | 'vector') =>
      VAULT.map(([id, text], i) =>
        scored({ id, text }, 1 / (i + 1), {
          vectorSimilarity: id === 'irrigation-1' || id === 'trip-2' ? 0.01 : 0.5,
          bm25Rank: id === 'irrigation-1' && answerFoundBy === 'vector' ? null : i + 1,
        }),
      );
    const relevance = { judgment, options: { refuseBelow: 0.05, keepRatio: 0.2 } };
    const floor = { value: 0.05, embedderId: 'test', derivation: 'test' };
    const ask = (answerFoundBy: 'bm25' | 'vector', floorSpareRatio: number | null) =>
      runFunnel(build(answerFoundBy), 'intent', { enabled: true, floor, relevance, floorSpareRatio });
    const itemsOf = async (out: ReturnType<typeof ask>) => (await out).items.map((c) => c.record.id);
    const floored = async (out: ReturnType<typeof ask>) =>
      (await out).dropped.filter((d) => d.stage === 'floor').map((d) => d.candidate.record.id);

    const spared = ask('bm25', 0.5);
    expect((await spared).holdsNothing).toBeNull();
    expect((await spared).floor).toMatchObject({ value: 0.05, spared: 1 });
    expect(await itemsOf(spared)).toContain('irrigation-1');
    // A lexical hit that holds under the ratio of the best coverage stays dropped (trip-2: none).
    expect(await floored(spared)).toEqual(['trip-2']);
    // So does a vector-only hit, and everything with the rule off.
    expect(await itemsOf(ask('vector', 0.5))).not.toContain('irrigation-1');
    expect(await itemsOf(ask('bm25', null))).not.toContain('irrigation-1');
    expect(await floored(ask('bm25', null))).toEqual(['irrigation-1', 'trip-2']);
  });

  it('refuses on the floored set alone: a lexical match the floor dropped does not make an off-topic prompt answerable', async () => {
    const prompt = 'Which database did we pick for the irrigation schedules?';
    const { judgment } = judge(prompt);
    // Every irrigation memory falls under the floor: what is left holds too little of the prompt.
    const candidates = VAULT.map(([id, text], i) =>
      scored({ id, text }, 1 / (i + 1), { vectorSimilarity: id.startsWith('irrigation') ? 0.01 : 0.5, bm25Rank: i + 1 }),
    );
    const at = { value: 0.05, embedderId: 'test', derivation: 'test' };
    const out = await runFunnel(candidates, 'intent', {
      enabled: true,
      floor: at,
      relevance: { judgment, options: { refuseBelow: 0.2, keepRatio: 0.2 } },
      floorSpareRatio: 0.2,
    });
    expect(out.items).toEqual([]);
    expect(out.holdsNothing).toMatchObject({ emptyAt: 'relevance' });
  });

  it('keeps a candidate it could not judge, and does nothing without a judgment', () => {
    const { judgment, candidates } = judge('Which database did we pick for the irrigation schedules?');
    const stranger = scored({ id: 'not-in-bm25', text: 'anything' });
    const out = applyRelevance([...candidates, stranger], { judgment, options: { refuseBelow: 0.3, keepRatio: 0.9 } });
    expect(out.kept.map((c) => c.record.id)).toContain('not-in-bm25');
    expect(applyRelevance(candidates, null)).toMatchObject({ kept: candidates, dropped: [], status: null });
  });
});

describe('refusal with evidence (subject check)', () => {
  const turns: [string, string, string][] = [
    ['m1', 'Melanie', 'Thanks, Caroline! Yeah, I made this black and white bowl in my pottery class.'],
    ['m2', 'Caroline', 'That is gorgeous! You are so talented.'],
    ['m3', 'Melanie', 'I ran a charity race for mental health last Saturday.'],
    ['c1', 'Caroline', 'I went to an LGBTQ support group yesterday and it was powerful.'],
    ['c2', 'Melanie', 'Caroline told me she painted a sunrise at the lake.'],
  ];
  function setup(prompt: string) {
    const bm25 = new Bm25Index();
    for (const [id, , text] of turns) bm25.add(id, text);
    const candidates: ScoredCandidate[] = turns.map(([id, speaker, text], i) => scored({ id, text, speakers: [speaker] }, 1 / (i + 1)));
    const judgment = termCoverage(
      bm25.explain(
        unframe(prompt),
        candidates.map((c) => c.record.id),
      ),
    );
    const ordered = [...candidates].sort((a, b) => (judgment.coverage.get(b.record.id) ?? 0) - (judgment.coverage.get(a.record.id) ?? 0));
    return { judgment, ordered };
  }

  it('tells a person addressed from a person talked about', () => {
    expect(namesAsSubject('Thanks, Caroline! I made it.', 'Caroline')).toBe(false);
    expect(namesAsSubject('Hey Caroline, how are you?', 'Caroline')).toBe(false);
    expect(namesAsSubject('Caroline, you rock.', 'Caroline')).toBe(false);
    expect(namesAsSubject('Caroline told me she painted it.', 'Caroline')).toBe(true);
    expect(namesAsSubject('I went there with Caroline.', 'Caroline')).toBe(true);
    expect(namesAsSubject('Carolines are rare.', 'Caroline')).toBe(false);
  });

  it('finds the persons a prompt names among the vault speakers, possessives included', () => {
    const speakers = new Set(['Caroline', 'Melanie', 'Jon Smith']);
    expect(namedPersons("What is Caroline's favourite bowl?", speakers)).toEqual(['Caroline']);
    expect(namedPersons('What did Jon and Melanie do?', speakers)).toEqual(['Jon', 'Melanie']);
    expect(namedPersons('What did Gina do in Paris?', speakers)).toEqual([]);
  });

  it('refuses a prompt about the wrong person and names who the matches are about', () => {
    const { judgment, ordered } = setup('Did Caroline make the black and white bowl in pottery class?');
    const check = checkSubject('Did Caroline make the black and white bowl in pottery class?', ordered, judgment, {
      window: 3,
      ratio: 0.75,
      minShare: 0.3,
    });
    expect(check).toMatchObject({ named: ['Caroline'], others: ['Melanie'], mismatch: true });
    expect(check!.matching).toEqual(['m1']);
  });

  it('does not refuse a prompt that names the person only as the owner of a friend ("Melanie\'s friend")', () => {
    const prompt = "Did Caroline's friend make the black and white bowl in pottery class?";
    const { judgment, ordered } = setup(prompt);
    const options = { window: 3, ratio: 0.75, minShare: 0.3 };
    expect(checkSubject(prompt, ordered, judgment, options)).toBeNull();
    for (const relation of ['Caroline’s best friend', "Caroline's friends", "Caroline's buddy"])
      expect(checkSubject(`Did ${relation} make the black and white bowl in pottery class?`, ordered, judgment, options)).toBeNull();
    // Kin are spoken of by their owner ("my sister"): matches about another speaker still refuse.
    const kin = "Did Caroline's sister make the black and white bowl in pottery class?";
    expect(checkSubject(kin, ordered, judgment, options)).toMatchObject({ named: ['Caroline'], mismatch: true });
    // Named as the subject too, or as the owner of a thing, the check runs and refuses.
    const both = "Did Caroline make the black and white bowl with Caroline's friend?";
    expect(checkSubject(both, ordered, judgment, options)).toMatchObject({ named: ['Caroline'], mismatch: true });
    const owner = "Did Caroline's class make the black and white bowl in pottery?";
    expect(checkSubject(owner, ordered, judgment, options)).toMatchObject({ named: ['Caroline'], mismatch: true });
    // The subject boost still reads the owner as named: her own turns speak of "my kids".
    expect(aboutNamed(prompt, ordered, judgment)).not.toBeNull();
    expect(namedOnlyAsFriendOwner(prompt, 'Caroline')).toBe(true);
  });

  it('passes a prompt whose matches are said by the person, or name them as the subject', () => {
    const own = setup('When did Caroline go to the LGBTQ support group?');
    const loose = { window: 5, ratio: 0.5, minShare: 0.3 };
    expect(checkSubject('When did Caroline go to the LGBTQ support group?', own.ordered, own.judgment, loose)).toMatchObject({
      mismatch: false,
    });
    const told = setup('What did Caroline paint at the lake?');
    expect(checkSubject('What did Caroline paint at the lake?', told.ordered, told.judgment, loose)).toMatchObject({ mismatch: false });
    const nobody = setup('What was the charity race for?');
    expect(checkSubject('What was the charity race for?', nobody.ordered, nobody.judgment, loose)).toBeNull();
    // A weak match (under minShare of the prompt's other words) never refuses.
    expect(
      checkSubject('When did Caroline go to the LGBTQ support group?', own.ordered, own.judgment, { ...loose, minShare: 1 }),
    ).toBeNull();
  });

  it('makes the funnel say the vault holds nothing about that person, with the matching memory as the closest miss', async () => {
    const prompt = 'What did Caroline run the charity race for?';
    const { judgment, ordered } = setup(prompt);
    const out = await runFunnel(ordered, 'intent', {
      enabled: true,
      floor,
      relevance: { judgment, options: { refuseBelow: 0, keepRatio: 0 } },
      subject: { prompt, options: { window: 3, ratio: 0.75, minShare: 0.3 } },
    });
    expect(out.holdsNothing).toMatchObject({ emptyAt: 'subject' });
    expect(out.holdsNothing!.message).toMatch(/names Caroline.*about Melanie/u);
    expect(out.holdsNothing!.closestMisses.map((m) => m.candidate.record.id)).toEqual(['m3']);
    expect(out.subject).toMatchObject({ mismatch: true });
  });
});

describe('who a matching statement is about (the statement reading)', () => {
  const persons = ['Jon', 'Gina'];

  it('reads the first person as the speaker, the second as the one addressed, a name as that person', () => {
    expect(statementSubjects('I designed my store myself.', 'Gina', 'Jon', persons)).toEqual(['Gina']);
    expect(statementSubjects('Your store looks great.', 'Jon', 'Gina', persons)).toEqual(['Gina']);
    expect(statementSubjects("I'm so proud of you.", 'Jon', 'Gina', persons)).toEqual(['Jon', 'Gina']);
    expect(statementSubjects('Gina told me the store opened.', 'Jon', null, persons)).toEqual(['Gina', 'Jon']);
    // Courtesy and filler are about nobody; a statement about nobody is its speaker's unless told otherwise.
    expect(statementSubjects('Thank you, the store opened.', 'Jon', 'Gina', persons)).toEqual(['Jon']);
    expect(statementSubjects('The store opened.', 'Jon', 'Gina', persons, ['Gina'])).toEqual(['Gina']);
    // "us" is the speaker's; "the US" is a country.
    expect(statementSubjects('Gina took us to the store.', 'Jon', 'Gina', persons)).toEqual(['Gina', 'Jon']);
    expect(statementSubjects('The store ships to the US.', 'Jon', 'Gina', persons, ['Gina'])).toEqual(['Gina']);
    // Without a known listener the second person says nothing.
    expect(statementSubjects('Your store looks great.', 'Jon', null, persons)).toEqual(['Jon']);
  });

  /** Turns of one conversation between Jon and Gina as candidates ranked in the order given, judged for `prompt`. */
  function conversation(prompt: string, turns: [string, string, string][]) {
    const bm25 = new Bm25Index();
    for (const [id, , text] of turns) bm25.add(id, text);
    const candidates = turns.map(([id, speaker, text], i) =>
      scored({ id, text, speakers: [speaker], conversationId: 'jon-gina' }, 1 / (i + 1)),
    );
    const judgment = termCoverage(
      bm25.explain(
        unframe(prompt),
        candidates.map((c) => c.record.id),
      ),
    );
    return { candidates, judgment };
  }

  function turnsOf(prompt: string, turns: [string, string, string][]) {
    const { candidates, judgment } = conversation(prompt, turns);
    return checkSubject(prompt, candidates, judgment, { window: 5, ratio: 0.5, minShare: 0.3 });
  }

  it("refuses a prompt about Jon's store when his only words on it praise hers", () => {
    const check = turnsOf('What furniture did Jon choose for his store?', [
      ['g1', 'Gina', 'I chose furniture for my store that looks great and is comfy.'],
      ['j1', 'Jon', 'Wow, the furniture in your store looks great!'],
      ['j2', 'Jon', 'I went to the gym this morning.'],
    ]);
    expect(check).toMatchObject({ named: ['Jon'], others: ['Gina'], mismatch: true });
  });

  it("reads a statement that names nobody as the listener's when the turn talks to them and not of its speaker", () => {
    const praise = turnsOf('What did Jon realize after the charity race?', [
      ['g1', 'Gina', 'I ran a charity race last Saturday and it made me realize a lot.'],
      ['j1', 'Jon', 'That charity race sounds great! You must realize how much it helped.'],
    ]);
    expect(praise).toMatchObject({ mismatch: true, others: ['Gina'] });
    // The same words in a turn that also speaks of its speaker stay the speaker's: no refusal.
    const own = turnsOf('What did Jon realize after the charity race?', [
      ['g1', 'Gina', 'I ran a charity race last Saturday and it made me realize a lot.'],
      ['j1', 'Jon', 'That charity race sounds great! I realize you trained hard, I did too.'],
    ]);
    expect(own).toMatchObject({ mismatch: false, others: [] });
  });

  it('finds the memories about the person named, by the same reading (the subject boost)', () => {
    const turns: [string, string, string][] = [
      ['g1', 'Gina', 'I chose furniture for my store that looks great and is comfy.'],
      ['j1', 'Jon', 'Wow, the furniture in your store looks great!'],
      ['j2', 'Jon', 'I bought new furniture for my dance studio.'],
      ['g2', 'Gina', 'Jon picked the furniture for the studio himself.'],
    ];
    const prompt = 'What furniture did Jon buy?';
    const { candidates, judgment } = conversation(prompt, turns);
    expect([...aboutNamed(prompt, candidates, judgment)!].sort()).toEqual(['g2', 'j2']);
    expect(aboutNamed('What furniture did Gina buy?', candidates, judgment)!.has('j1')).toBe(true);
    expect(aboutNamed('What furniture was bought?', candidates, judgment)).toBeNull();
    // Roles are not persons: a chat export's "assistant" is never the one a prompt names.
    const roles = candidates.map((c) => ({ ...c, record: { ...c.record, speakers: ['assistant'] } }));
    expect(aboutNamed('What furniture did the Assistant suggest?', roles, judgment)).toBeNull();
    const human = candidates.map((c) => ({ ...c, record: { ...c.record, speakers: ['Human'] } }));
    expect(aboutNamed('What furniture did the Human pick?', human, judgment)).toBeNull();
  });

  it("does not refuse when the other speaker's words are about the person named", () => {
    const check = turnsOf('Why did Jon get a third turtle?', [
      ['g1', 'Gina', 'I bet last week you never thought you would be getting a third turtle!'],
      ['j1', 'Jon', 'I painted the fence today.'],
    ]);
    expect(check).toMatchObject({ named: ['Jon'], mismatch: false });
  });
});

describe('statements', () => {
  it('keeps what a memory states and leaves out its questions', async () => {
    const { statements } = await import('../../../src/lib/core/recall/subject-check');
    expect(statements('Wow! I made this bowl. What do you think?').trim()).toBe('Wow! I made this bowl.');
    expect(statements('You play any instruments?').trim()).toBe('');
    expect(statements('No question here').trim()).toBe('No question here');
  });
});
