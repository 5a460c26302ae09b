/**
 * `engram eval locomo --llm-endpoint URL [--model NAME] [--reranker PATH]`: the whole path of the
 * model stages (intent, decomposition, fit-gate through the OpenAI-compatible adapter over HTTP, the
 * tiny cross-encoder from a folder) against a local fake server answering from the evidence with
 * scripted noise, and against one that fails every call.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCrossEncoder } from '../../../scripts/make-test-model';
import { parseLocomo, type LocomoSample } from '../../../src/lib/core/recall/locomo-data';
import { runCli } from '../../factories/cli';
import { startFakeOpenAi, type FakeServer } from '../../factories/fake-openai-server';
import { syntheticSample } from '../../factories/recall-locomo';

const RERANKER = resolve('static/test-models/tiny-cross-encoder');
const LOCOMO = resolve(process.cwd(), '../shared/data/locomo/locomo-dev.json');
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

beforeAll(() => {
  if (!existsSync(join(RERANKER, 'onnx', 'model.onnx'))) makeTestCrossEncoder(resolve('static/test-models'));
});

async function sampleFile(samples: unknown[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'engram-eval-models-')), 'sample.json');
  await writeFile(file, JSON.stringify(samples));
  return file;
}

interface Figures {
  calls: number;
  failures: number;
  skipped: number;
  breakerOpened: number;
  p50Ms: number | null;
  p95Ms: number | null;
}
interface ModelsJson {
  modes: Record<
    string,
    {
      recallAtK: Record<string, number>;
      recallAtBudget: Record<string, number>;
      byCategory: unknown;
      packagePrecision: number;
      meanPackageTokens: number;
    }
  >;
  unanswerable: { holdsNothingRate: number; falseRefusalRate: number };
  models: {
    llm: string;
    reranker: string | null;
    gate: { judged: number; agreement: number | null; evidenceKept: number | null };
  };
  stages: Record<'gate' | 'decompose' | 'intent' | 'rerank', Figures>;
}

async function evalJson(file: string, ...flags: string[]): Promise<ModelsJson> {
  const { code, out, err } = await runCli(['eval', 'locomo', file, '--modes', 'hybrid,funnel', '--json', ...flags]);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as ModelsJson;
}

describe('eval locomo with the model stages', () => {
  it('runs intent, decomposition and the fit-gate on a local server and the reranker from a folder, and reports every figure', async () => {
    const sample = syntheticSample();
    const server = await startFakeOpenAi({ samples: [sample as unknown as LocomoSample], noise: 0 });
    servers.push(server);
    const file = await sampleFile([sample]);
    const report = await evalJson(file, '--llm-endpoint', server.url, '--model', 'fake-small', '--reranker', RERANKER);
    const funnelRecalls = 5; // 4 answerable + 1 unanswerable questions
    expect(report.models.llm).toBe('openai-compatible:fake-small');
    expect(report.models.reranker).toBe('reranker:tiny-cross-encoder:fp32');
    expect(report.stages.intent).toMatchObject({ calls: funnelRecalls, failures: 0, breakerOpened: 0 });
    expect(report.stages.decompose).toMatchObject({ calls: funnelRecalls, failures: 0 });
    expect(report.stages.gate.failures).toBe(0);
    expect(report.stages.gate.calls + report.stages.gate.skipped).toBe(funnelRecalls);
    expect(report.stages.rerank.calls + report.stages.rerank.skipped).toBe(funnelRecalls);
    expect(report.stages.gate.p95Ms).toBeGreaterThanOrEqual(report.stages.gate.p50Ms!);
    // Only the funnel mode asked the model (the baseline modes stay model-free).
    const byStage = (stage: string) => server.calls.filter((c) => c.stage === stage).length;
    expect(byStage('intent')).toBe(funnelRecalls);
    expect(byStage('gate')).toBe(report.stages.gate.calls);
    // A noiseless gate that answers from the evidence agrees with it on every candidate it judged...
    expect(report.models.gate.judged).toBeGreaterThan(0);
    expect(report.models.gate.agreement).toBe(1);
    // ...so the package holds only evidence, the unanswerable question is refused, and no answerable one is
    // (the report's one package precision, beside the model stages' own figures).
    expect(report.modes.funnel!.packagePrecision).toBe(1);
    expect(report.modes.funnel!.meanPackageTokens).toBeGreaterThan(0);
    expect(report.models).not.toHaveProperty('packagePrecision');
    expect(report.unanswerable.holdsNothingRate).toBe(1);
    expect(report.unanswerable.falseRefusalRate).toBe(0);
  }, 60_000);

  it('with scripted noise the gate disagrees with the evidence on some candidates, and the figures say so', async () => {
    const sample = syntheticSample();
    const server = await startFakeOpenAi({ samples: [sample as unknown as LocomoSample], noise: 0.3, seed: 11 });
    servers.push(server);
    const report = await evalJson(await sampleFile([sample]), '--llm-endpoint', server.url);
    expect(report.models.gate.judged).toBeGreaterThan(0);
    expect(report.models.gate.agreement).toBeLessThan(1);
    expect(report.models.gate.agreement).toBeGreaterThan(0);
  }, 60_000);

  it('a server that fails every call: the run completes, the breakers open, and recall equals the no-model funnel', async () => {
    const sample = syntheticSample();
    const server = await startFakeOpenAi({ samples: [sample as unknown as LocomoSample], fail: true });
    servers.push(server);
    const file = await sampleFile([sample]);
    const failing = await evalJson(file, '--llm-endpoint', server.url, '--model', 'down');
    const plain = JSON.parse((await runCli(['eval', 'locomo', file, '--modes', 'hybrid,funnel', '--json'])).out) as ModelsJson;
    for (const stage of ['intent', 'decompose', 'gate'] as const) {
      expect(failing.stages[stage].failures).toBe(3);
      expect(failing.stages[stage].breakerOpened).toBe(1);
    }
    expect(failing.stages.decompose.skipped).toBe(2);
    expect(server.calls.every((c) => c.status === 500)).toBe(true);
    expect(server.calls.length).toBeLessThanOrEqual(9);
    const figures = (r: ModelsJson) =>
      Object.fromEntries(
        Object.entries(r.modes).map(([m, v]) => [m, { atK: v.recallAtK, atBudget: v.recallAtBudget, byCategory: v.byCategory }]),
      );
    expect(figures(failing)).toEqual(figures(plain));
    expect(Object.keys(figures(plain))).toEqual(['hybrid', 'funnel']);
    expect(failing.unanswerable).toEqual(plain.unanswerable);
  }, 60_000);

  it('refuses --model without --llm-endpoint and a --reranker folder without a model', async () => {
    const file = await sampleFile([syntheticSample()]);
    expect((await runCli(['eval', 'locomo', file, '--model', 'x'])).code).toBe(2);
    const bad = await runCli(['eval', 'locomo', file, '--reranker', tmpdir()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/config\.json/u);
  });

  it.skipIf(!existsSync(LOCOMO))(
    'one LoCoMo dev conversation through a noisy fake server: gate agreement and package precision are figures, not claims',
    async () => {
      const parsed = parseLocomo(JSON.parse(await readFile(LOCOMO, 'utf8')));
      if (!parsed.ok) throw new Error(parsed.error.message);
      const first = parsed.value[0]!;
      const server = await startFakeOpenAi({ samples: [first], noise: 0.1, seed: 3 });
      servers.push(server);
      const report = await evalJson(await sampleFile([first]), '--llm-endpoint', server.url, '--model', 'fake-noisy');
      console.info(
        'LoCoMo',
        first.sample_id,
        'with a fake model (noise 0.1):',
        JSON.stringify({ models: report.models, stages: report.stages }),
      );
      expect(report.stages.gate.calls).toBeGreaterThan(50);
      expect(report.models.gate.agreement).toBeGreaterThan(0.5);
      expect(report.modes.funnel!.packagePrecision).toBeGreaterThan(0);
      expect(report.unanswerable.holdsNothingRate).toBeGreaterThan(0);
    },
    300_000,
  );
});
