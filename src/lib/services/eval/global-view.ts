/**
 * `eval global`: what the GLOBAL view (structural units: session summaries, thread maps, entity
 * communities; core/recall/structure-stage.ts) does for big-picture prompts. One vault holds every
 * chat of the labelled extraction corpus (tests/fixtures/extraction), imported by the product's
 * importer, extracted by the extraction job (which stores each session's summary; rule-based, no
 * model), swept for thread maps and indexed by the index service. Each prompt of the set names the
 * one chat it is about; it is asked through the recall service twice: "off", with the GLOBAL view's
 * stages off (structural items and session focus, session-focus.ts), and "on", with the app's
 * defaults. The package is judged by where its items come from:
 *   targetInPackage        the share of asks whose package holds an item of the prompt's chat;
 *   conversationPrecision  the mean share of package items drawn from that chat (a structural item
 *                          counts when its sources include it), over asks that were not refused;
 *   structuralPerAsk       structural items per ask; structuralOnTarget: the share of them drawn
 *                          from the prompt's chat.
 * Conversation-level judgment suits these prompts: an overview is about a chat, not a turn.
 */
import { z } from 'zod';
import { communitySummaryJob } from '../../core/api/index-api';
import type { Llm } from '../../core/api/llm';
import { StageBreakers } from '../../core/breaker/circuit-breaker';
import { parsePromptFile } from './prompt-file';
import { vaultError, VaultFailure, type Result } from '../../core/errors';
import type { LabelledConversation } from '../../core/extract/labelled-corpus';
import { parsedEvents } from '../../core/import/parsed-events';
import { linearThread } from '../../core/import/linear-thread';
import type { ParsedConversation } from '../../core/import/parsed';
import type { RetrievalMode } from '../../core/recall/intent-class';
import type { StructureOptions } from '../../core/recall/structure-stage';
import type { CandidateRecord } from '../../core/recall/ports';
import { runImport } from '../../store/importer';
import { openVault, type Vault } from '../../store/vault';
import { LIVE } from '../../store/views/conversation-insight';
import { storeThreadMaps } from '../curation/thread-maps';
import type { CommunitySummaryCounts } from '../index/community-summaries';
import type { VectorSearchMode } from '../index/model-index';
import { extractEveryConversation, withIndexedVault } from './eval-vault';

const promptSchema = z.object({ conversation: z.string().min(1), kind: z.string().min(1), prompt: z.string().trim().min(1) });
export type GlobalPrompt = z.infer<typeof promptSchema>;

/** The prompt file: `{ "prompts": [{ "conversation", "kind", "prompt" }, ...] }` (other keys ignored). */
export function parseGlobalPrompts(data: unknown): Result<GlobalPrompt[]> {
  return parsePromptFile(data, promptSchema, '{ "conversation", "kind", "prompt" }');
}

export interface GlobalMetrics {
  asks: number;
  refusedRate: number;
  targetInPackage: number;
  conversationPrecision: number;
  meanPackageTokens: number;
  structuralPerAsk: number;
  structuralOnTarget: number;
}

export interface GlobalReport {
  conversations: number;
  prompts: number;
  /** How the app's router classified the prompts (GLOBAL and HYBRID prompts search the structural units). */
  modes: Partial<Record<RetrievalMode, number>>;
  /** What the structural index held. */
  units: Record<string, number>;
  off: GlobalMetrics;
  on: GlobalMetrics;
  byKind: Record<string, { off: GlobalMetrics; on: GlobalMetrics }>;
  /** Ask by ask, whether the share of package items from the prompt's chat rose, fell or stayed with the structural items on. */
  perAsk: { better: number; worse: number; same: number };
  /**
   * With a model (`--llm-endpoint`): what it wrote of the view's units. Session summaries by the model
   * or extractive (its answer failed or fell outside the bounds), and the community summaries' job
   * (community-summaries.ts). Absent without a model.
   */
  model?: { id: string; sessionSummaries: { llm: number; extractive: number }; communitySummaries: CommunitySummaryCounts | null };
}

export interface GlobalRunOptions {
  vectors?: VectorSearchMode;
  /** Structure-stage settings for the "on" pass (defaults: the app's). */
  structure?: Partial<StructureOptions>;
  /** Session focus for the "on" pass (default: the app's SESSION_FOCUS; false: off). */
  focus?: number | false;
  onProgress?: (what: string) => void;
  /**
   * A model, lent as the app lends its workers one: extraction (units and session summaries), the
   * entity communities' summaries and recall's model stages use it, each falling back as in the app.
   */
  llm?: Llm | null;
}

const DAY = 86_400_000;
const BASE = Date.UTC(2025, 0, 6);

function parsedConversation(c: LabelledConversation, i: number): ParsedConversation {
  const start = BASE + i * DAY;
  const messages = linearThread(
    c.turns.map((t, j) => ({ externalId: `${c.id}/${t.id}`, role: t.role, text: t.text, createdAt: start + j * 60_000 })),
  );
  return { source: 'transcript', externalId: c.id, title: c.title, createdAt: start, updatedAt: start, messages, notes: [] };
}

/** The corpus in one vault as the app would hold it after import, extraction and a sweep. */
export async function corpusVault(
  conversations: readonly LabelledConversation[],
  onProgress?: (what: string) => void,
  llm: Llm | null = null,
): Promise<{ vault: Vault; idOf: Map<string, string> }> {
  const vault = await openVault(`eval-global-${globalThis.process?.pid ?? 0}-${Date.now()}`);
  try {
    const parsed = conversations.map(parsedConversation);
    const report = await runImport(vault, [
      { name: 'labelled corpus', size: null, events: parsedEvents('corpus.json', 'transcript', parsed, [], 0) },
    ]);
    if (report.status !== 'done')
      throw new VaultFailure(vaultError('import/failed', `The corpus did not import cleanly (${report.status}).`));
    const rows = await vault.db.conversations.toArray();
    const idOf = new Map(rows.map((r) => [r.externalId, r.id]));
    await extractEveryConversation(
      vault,
      (done, total) => {
        if (done % 20 === 0) onProgress?.(`extracted ${done} of ${total} conversations`);
      },
      llm,
    );
    const notes = await vault.db.notes.where('status').anyOf(LIVE).toArray();
    await storeThreadMaps(vault, notes, BASE + conversations.length * DAY);
    return { vault, idOf };
  } catch (thrown) {
    await vault.db.delete();
    throw thrown;
  }
}

interface Ask {
  kind: string;
  refused: boolean;
  items: number;
  onTarget: number;
  tokens: number;
  structural: number;
  structuralOnTarget: number;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function metrics(asks: readonly Ask[]): GlobalMetrics {
  const answered = asks.filter((a) => !a.refused);
  const structural = asks.reduce((n, a) => n + a.structural, 0);
  return {
    asks: asks.length,
    refusedRate: asks.length ? (asks.length - answered.length) / asks.length : 0,
    targetInPackage: asks.length ? asks.filter((a) => a.onTarget > 0).length / asks.length : 0,
    conversationPrecision: mean(answered.map((a) => (a.items ? a.onTarget / a.items : 0))),
    meanPackageTokens: mean(answered.map((a) => a.tokens)),
    structuralPerAsk: asks.length ? structural / asks.length : 0,
    structuralOnTarget: structural ? asks.reduce((n, a) => n + a.structuralOnTarget, 0) / structural : 0,
  };
}

const fromTarget = (record: CandidateRecord, target: string): boolean =>
  record.structure ? record.structure.sources.some((s) => s.conversationId === target) : record.conversationId === target;

export async function runGlobalEval(
  conversations: readonly LabelledConversation[],
  prompts: readonly GlobalPrompt[],
  options: GlobalRunOptions = {},
): Promise<GlobalReport> {
  const known = new Set(conversations.map((c) => c.id));
  const unknown = prompts.find((p) => !known.has(p.conversation));
  if (unknown)
    throw new VaultFailure(
      vaultError('input/invalid', `A prompt names the conversation "${unknown.conversation}", which the corpus does not hold.`),
    );
  const llm = options.llm ?? null;
  const { vault, idOf } = await corpusVault(conversations, options.onProgress, llm);
  return withIndexedVault(
    vault,
    options.vectors ?? 'hnsw',
    async (index) => {
      // As the app's index worker does while a model is loaded: the communities summarised before the
      // first GLOBAL recall builds the structural index.
      let communitySummaries: CommunitySummaryCounts | null = null;
      if (llm) {
        const job = await vault.jobs.enqueue(communitySummaryJob(), Date.now());
        await index.runJobs();
        communitySummaries = ((await vault.jobs.get(job.id))?.result ?? null) as CommunitySummaryCounts | null;
        options.onProgress?.(`the model summarised ${communitySummaries?.written ?? 0} entity communities`);
      }
      const recaller = index.recaller(llm ? { llm: () => llm, breakers: new StageBreakers({ now: () => Date.now() }) } : {});
      const modes: GlobalReport['modes'] = {};
      const passes: Record<'off' | 'on', Ask[]> = { off: [], on: [] };
      for (const pass of ['off', 'on'] as const) {
        for (const p of prompts) {
          const target = idOf.get(p.conversation)!;
          const stages =
            pass === 'off'
              ? { structure: false as const, focus: false as const }
              : { structure: options.structure ?? {}, ...(options.focus !== undefined ? { focus: options.focus } : {}) };
          const answer = await recaller.answer({ prompt: p.prompt }, { writeBack: false, ...stages });
          if (!answer.ok) throw new VaultFailure(answer.error);
          const { result, package: pkg } = answer.value;
          const mode = result.intentClass?.mode;
          if (pass === 'on' && mode) modes[mode] = (modes[mode] ?? 0) + 1;
          const byId = new Map(result.items.map((i) => [i.record.id, i.record]));
          const packed = pkg.entries.flatMap((e) => byId.get(e.ref) ?? []);
          const structural = packed.filter((r) => r.kind === 'structure');
          passes[pass].push({
            kind: p.kind,
            refused: result.holdsNothing !== null,
            items: packed.length,
            onTarget: packed.filter((r) => fromTarget(r, target)).length,
            tokens: pkg.entries.length ? pkg.tokens : 0,
            structural: structural.length,
            structuralOnTarget: structural.filter((r) => fromTarget(r, target)).length,
          });
        }
        options.onProgress?.(`asked ${prompts.length} prompts with the GLOBAL view's stages ${pass}`);
      }
      const kinds = [...new Set(prompts.map((p) => p.kind))].sort();
      const share = (a: Ask) => (a.items ? a.onTarget / a.items : 0);
      const perAsk = { better: 0, worse: 0, same: 0 };
      passes.on.forEach((on, i) => {
        const d = share(on) - share(passes.off[i]!);
        perAsk[Math.abs(d) < 1e-9 ? 'same' : d > 0 ? 'better' : 'worse']++;
      });
      return {
        conversations: conversations.length,
        prompts: prompts.length,
        modes,
        units: (await index.service.structure.index()).counts(),
        off: metrics(passes.off),
        on: metrics(passes.on),
        byKind: Object.fromEntries(
          kinds.map((k) => [
            k,
            { off: metrics(passes.off.filter((a) => a.kind === k)), on: metrics(passes.on.filter((a) => a.kind === k)) },
          ]),
        ),
        perAsk,
        ...(llm ? { model: { id: llm.id, sessionSummaries: await summaryMethods(vault), communitySummaries } } : {}),
      };
    },
    llm,
  );
}

async function summaryMethods(vault: Vault): Promise<{ llm: number; extractive: number }> {
  const rows = await vault.db.summaries.toArray();
  const llm = rows.filter((r) => r.method === 'llm').length;
  return { llm, extractive: rows.length - llm };
}
