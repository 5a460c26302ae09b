/**
 * The index service: what the index worker exposes (src/lib/core/api/index-api.ts) minus the
 * worker plumbing, so the Node CLI and the tests run exactly this code. It loads the indexes,
 * provides the job handlers that keep them current, answers the read path's searches, and manages
 * which embedder serves.
 */
import { choiceId, type EmbedderChoice, type EmbeddingModelSpec } from '../../core/api/embedder';
import { indexEmbedJob, type HealthReport, type IndexStatus, type ModelEntry, type ModelFileInput } from '../../core/api/index-api';
import { fail } from '../../core/errors';
import type { CandidateRecord, LexicalHit, VectorHit } from '../../core/recall/ports';
import type { JobHandler } from '../../store/job-runner';
import { readCandidates } from './candidates';
import { embedPlan, persist, promoteIfComplete, runHealthCheck } from './embedding';
import { indexHandlers } from './index-jobs';
import { type IndexDeps, IndexState, LEXICAL } from './index-state';
import { embedderLabel, loadState, openModel } from './load';
import { indexStatus } from './status';

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

export class IndexService {
  readonly state: IndexState;
  /** Called after work was queued (the worker wakes its runner). */
  onQueued: () => void = () => undefined;

  constructor(deps: IndexDeps) {
    this.state = new IndexState(deps);
  }

  /** Loads every index; queues embedding when documents lack vectors (e.g. after a crash). */
  async start(): Promise<void> {
    await loadState(this.state);
    if (this.state.servingChoice.kind !== 'lexical') void this.state.embedderFor(this.state.servingChoice).catch(() => undefined);
    if (!this.state.readOnly && embedPlan(this.state).length > 0) await this.queueEmbedding();
  }

  /** A follower reloads what the leader saved. */
  reload(): Promise<void> {
    return this.state.lock.run(() => loadState(this.state));
  }

  handlers(): Record<string, JobHandler> {
    return indexHandlers(this.state);
  }

  status(role: IndexStatus['role'], work: IndexStatus['work'], error: IndexStatus['error'] = null): IndexStatus {
    return indexStatus(this.state, role, work, error);
  }

  async lexicalSearch(query: string, k: number): Promise<LexicalHit[]> {
    return this.state.bm25.search(query, k).map((hit) => ({ id: hit.id, score: hit.score }));
  }

  async vectorSearch(vector: Float32Array, k: number): Promise<VectorHit[]> {
    const model = this.state.serving;
    if (!model) return [];
    if (vector.length !== model.dims) {
      fail('index/failed', `A ${vector.length}-dimension query cannot search the ${model.dims}-dimension index of ${model.embedderId}.`);
    }
    return model.index.search(vector, k).map((hit) => ({ id: hit.recordId, similarity: hit.similarity }));
  }

  async similarity(vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const model = this.state.serving;
    if (!model || vector.length !== model.dims) return out;
    for (const id of ids) {
      const label = model.index.labelOf(id);
      if (label !== undefined) out.set(id, dot(vector, model.index.vectorOf(label)));
    }
    return out;
  }

  candidates(ids: readonly string[]): Promise<CandidateRecord[]> {
    return readCandidates(this.state.vault, ids);
  }

  /** The serving embedder's vector of a query (with the model's query prefix). */
  async embedQuery(text: string): Promise<Float32Array> {
    const embedder = await this.state.embedderFor(this.state.servingChoice);
    const [vector] = await embedder.embedQueries([text]);
    return vector!;
  }

  checkHealth(): Promise<HealthReport | null> {
    return runHealthCheck(this.state);
  }

  async queueEmbedding(): Promise<string> {
    const job = await this.state.vault.jobs.enqueue(indexEmbedJob(), this.state.now());
    this.onQueued();
    return job.id;
  }

  /**
   * Starts building `choice`'s index in the background (downloading the model when needed); the
   * current index serves until it is complete. Choosing the serving embedder cancels a switch.
   */
  async useEmbedder(choice: EmbedderChoice): Promise<void> {
    const state = this.state;
    if (state.readOnly) fail('worker/unavailable', 'The index is managed by another tab; change the model there.');
    const id = choiceId(choice);
    await state.lock.run(async () => {
      if (state.targetChoice && choiceId(state.targetChoice) === id) return;
      if (state.target && state.targetChoice) {
        await state.target.discard();
        await state.unloadEmbedder(state.targetChoice);
      }
      state.target = null;
      state.targetChoice = null;
      if (id !== choiceId(state.servingChoice)) {
        state.targetChoice = choice;
        state.target = await openModel(state, choice);
      }
      await state.vault.settings.set('index.target', state.targetChoice);
    });
    state.changed();
    if (!state.targetChoice) return;
    void state.embedderFor(choice).catch(() => undefined);
    await this.queueEmbedding();
    // A model whose vectors are all stored already (switching back) takes over at once.
    const promoted = await promoteIfComplete(state).catch(() => false);
    if (promoted) await persist(state);
  }

  async models(): Promise<ModelEntry[]> {
    const state = this.state;
    const library = state.deps.library;
    const choices: EmbedderChoice[] = [LEXICAL, ...((await library?.known()) ?? [])];
    for (const extra of [state.servingChoice, state.targetChoice]) {
      if (extra && !choices.some((c) => choiceId(c) === choiceId(extra))) choices.push(extra);
    }
    return Promise.all(
      choices.map(async (choice) => {
        const size = choice.kind === 'lexical' || !library ? { bytes: 0, files: 0 } : await library.size(choice);
        const embedderId = choiceId(choice);
        return {
          embedderId,
          choice,
          label: choice.kind === 'lexical' ? 'Lexical fallback (built in)' : embedderLabel(choice),
          cached: choice.kind === 'lexical' || size.files > 0,
          bytes: choice.kind === 'lexical' ? null : size.bytes,
          files: size.files,
          serving: embedderId === choiceId(state.servingChoice),
          target: state.targetChoice !== null && embedderId === choiceId(state.targetChoice),
        };
      }),
    );
  }

  /** Deletes a model's cached files; if it serves, the lexical index is built to take over. */
  async deleteModel(embedderId: string): Promise<void> {
    const entry = (await this.models()).find((m) => m.embedderId === embedderId);
    if (!entry || entry.choice.kind === 'lexical') fail('input/invalid', 'That model is not in the model list.');
    await this.state.deps.library?.remove(entry.choice);
    if (entry.target) await this.useEmbedder(this.state.servingChoice);
    if (entry.serving) await this.useEmbedder(LEXICAL);
    this.state.changed();
  }

  async importModelFiles(files: ModelFileInput[], overrides?: Partial<EmbeddingModelSpec>): Promise<ModelEntry> {
    const library = this.state.deps.library;
    if (!library) fail('embed/unavailable', 'Model files can only be stored in the browser.');
    const choice = await library.importFiles(files, overrides);
    const entry = (await this.models()).find((m) => m.embedderId === choiceId(choice));
    return entry!;
  }
}
