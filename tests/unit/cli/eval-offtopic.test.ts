/**
 * `engram eval offtopic` over a case small enough to read: the invented LoCoMo-shaped sample (a
 * greyhound named Comet, pottery classes, a sister in Lisbon) as one vault, asked an on-topic prompt
 * that must get items and an off-topic one (it shares a word with the vault, so retrieval finds
 * candidates) that the model-free relevance stage must answer with "the vault holds nothing on this".
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { parseLocomo } from '../../../src/lib/core/recall/locomo-data';
import { asksOf, locomoVaults, parseOfftopicPrompts, runOfftopic } from '../../../src/lib/services/eval/offtopic';
import { syntheticSample } from '../../factories/recall-locomo';

const ON_TOPIC = 'What is the name of the greyhound Ana adopted?';
/** Shares "race" with the vault: retrieval finds candidates and the relevance stage must refuse. */
const OFF_TOPIC = 'How long should a marathon runner rest after a race?';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

async function files() {
  const dir = await mkdtemp(join(tmpdir(), 'engram-offtopic-'));
  const locomo = join(dir, 'synthetic.json');
  const prompts = join(dir, 'prompts.json');
  await writeFile(locomo, JSON.stringify([syntheticSample()]));
  await writeFile(prompts, JSON.stringify({ about: 'two prompts', prompts: [ON_TOPIC, OFF_TOPIC] }));
  return { dir, locomo, prompts };
}

describe('off-topic refusal through the read path', () => {
  it('refuses the off-topic prompt and answers the on-topic one', async () => {
    const parsed = parseLocomo([syntheticSample()]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const done: string[] = [];
    const report = await runOfftopic(locomoVaults(parsed.value), [ON_TOPIC, OFF_TOPIC], { onVault: (name) => done.push(name) });
    expect(done).toEqual(['synthetic-1']);
    expect(report).toMatchObject({
      prompts: 2,
      asks: 2,
      refusedRate: 0.5,
      byVault: { 'synthetic-1': { asks: 2, refused: 1, refusedRate: 0.5 } },
      refusedAt: { relevance: 1 },
    });
    expect(report.notRefused).toHaveLength(1);
    expect(report.notRefused[0]).toMatchObject({ vault: 'synthetic-1', prompt: ON_TOPIC });
    expect(report.notRefused[0]!.items).toBeGreaterThan(0);
  });

  it('asks a prompt naming {person} once per speaker of a LoCoMo vault, and not of a vault with no named speakers', async () => {
    expect(asksOf(['Where is {person} from?', 'Plain?'], ['Ana', 'Ben'])).toEqual(['Where is Ana from?', 'Where is Ben from?', 'Plain?']);
    expect(asksOf(['Where is {person} from?'])).toEqual([]);
    const parsed = parseLocomo([syntheticSample()]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [vault] = locomoVaults(parsed.value);
    const persons = vault!.persons!;
    expect(persons).toHaveLength(2);
    const report = await runOfftopic([vault!, { name: 'no speakers', open: vault!.open }], ['How long should {person} rest after a race?']);
    expect(report).toMatchObject({ prompts: 1, asks: 2, byVault: { 'synthetic-1': { asks: 2 } } });
    expect(Object.keys(report.byVault)).toEqual(['synthetic-1']);
    expect(report.byVault['synthetic-1']!.refused + report.notRefused.length).toBe(2);
    for (const n of report.notRefused) expect(n.prompt).toMatch(/^How long should (Ana|Ben) rest after a race\?$/u);
  });

  it('reads only a { prompts: [non-empty strings] } file', () => {
    expect(parseOfftopicPrompts({ prompts: ['a', 'b'] })).toEqual({ ok: true, value: ['a', 'b'] });
    for (const bad of [null, [], ['a'], { prompts: 'a' }, { prompts: [] }, { prompts: ['a', ''] }, { prompts: ['a', 3] }]) {
      expect(parseOfftopicPrompts(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('engram eval offtopic', () => {
  it('prints { prompts, asks, refusedRate, byVault, notRefused, refusedAt } with --json, and a table otherwise', async () => {
    const { locomo, prompts } = await files();
    const { io, out } = capture();
    expect(await main(['eval', 'offtopic', locomo, '--prompts', prompts, '--exports', 'none', '--json'], io)).toBe(0);
    const report = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['prompts', 'asks', 'refusedRate', 'byVault', 'notRefused', 'refusedAt']);
    expect(report).toMatchObject({ prompts: 2, asks: 2, refusedRate: 0.5, byVault: { 'synthetic-1': { asks: 2, refused: 1 } } });
    expect((report.notRefused as { prompt: string }[]).map((n) => n.prompt)).toEqual([ON_TOPIC]);

    const text = capture();
    expect(await main(['eval', 'offtopic', locomo, '--prompts', prompts, '--exports', 'none'], text.io)).toBe(0);
    expect(text.out[0]).toMatch(/"the vault holds nothing on this": 50\.0 % of 2 asks \(2 prompts x 1 vaults\)/);
    expect(text.out[0]).toMatch(/synthetic-1\s+2\s+1\s+50\.0 %/);
    expect(text.out[0]).toMatch(/Refused at: relevance 1\n/);
    expect(text.out[0]).toContain(JSON.stringify(ON_TOPIC));
    expect(text.out[0]).not.toContain(JSON.stringify(OFF_TOPIC));

    const named = join(dirname(prompts), 'named.json');
    await writeFile(named, JSON.stringify({ prompts: ['How long should {person} rest after a race?'] }));
    const namedText = capture();
    expect(await main(['eval', 'offtopic', locomo, '--prompts', named, '--exports', 'none'], namedText.io)).toBe(0);
    expect(namedText.out[0]).toMatch(/ of 2 asks \(1 prompts, \{person\} asked once per speaker, 1 vaults\)/);
  });

  it('says which file is missing or malformed', async () => {
    const { dir, locomo, prompts } = await files();
    const notJson = join(dir, 'not.json');
    const notPrompts = join(dir, 'not-prompts.json');
    const notLocomo = join(dir, 'not-locomo.json');
    await writeFile(notJson, '{ "prompts": [');
    await writeFile(notPrompts, JSON.stringify({ prompts: ['fine', 42] }));
    await writeFile(notLocomo, JSON.stringify([{ sample_id: 'x' }]));
    const cases: [string[], RegExp][] = [
      [[locomo, '--prompts', join(dir, 'absent.json')], /Cannot read the prompt file .*absent\.json/],
      [[locomo, '--prompts', notJson], /The prompt file .*not\.json is not JSON/],
      [[locomo, '--prompts', notPrompts], /not-prompts\.json: Prompt 2 of the prompt file is not a non-empty string/],
      [
        [join(dir, 'absent-locomo.json'), '--prompts', prompts],
        /Cannot read the LoCoMo file .*absent-locomo\.json.*\.\.\/shared\/data\/locomo/,
      ],
      [[notLocomo, '--prompts', prompts], /not-locomo\.json: This is not a LoCoMo file/],
      [[locomo, '--prompts', prompts, '--exports', join(dir, 'no-exports')], /Cannot read .*no-exports: the chat-export samples live in/],
    ];
    for (const [args, message] of cases) {
      const { io, err } = capture();
      expect(await main(['eval', 'offtopic', ...args], io), args.join(' ')).toBe(1);
      expect(err.join('\n')).toMatch(message);
    }
    for (const args of [['--samples', '0'], ['--samples', 'two'], ['a.json', 'b.json'], ['--bogus']]) {
      const { io, err } = capture();
      expect(await main(['eval', 'offtopic', ...args], io), args.join(' ')).toBe(2);
      expect(err.join('\n')).toMatch(/Usage: npm run engram -- eval/);
    }
  });
});
