import * as Comlink from 'comlink';
import type { Llm } from '../core/api/llm';
import { LLM_PORT_MESSAGE, type LlmChoice, type LlmInfo } from '../core/api/llm-port';
import { toVaultError, vaultError, type VaultError } from '../core/errors';
import { serveLlmPort } from '../models/llm-port';
import { OpenAiCompatibleLlm } from '../models/openai-compatible-llm';
import { isModelCached, removeCachedModel } from '../models/webllm-cache';
import { modelsForDevice, type ModelChoice } from '../models/webllm-catalogue';
import { createWebLlm } from '../models/webllm-create';
import { navigatorGpu, probeWebGpu, vramBudget, type VramBudget, type WebGpuCapabilities } from '../models/webllm-device';
import type { WebLlm } from '../models/webllm-llm';
import { errors } from './errors.svelte';
import { indexer } from './indexer.svelte';
import { checkEndpointUrl, llmStatusText, type LlmPhase } from './llm-status';
import { vaultViews } from '../store/views/vault-views';
import { vaultWorker } from './vault-worker';

/** Loading a model may download hundreds of MB: a generous limit, and the person can cancel. */
const LOAD_TIMEOUT_MS = 30 * 60_000;
/** Every call made through this client gets at most this long (extraction windows, recall stages). */
const CALL_TIMEOUT_MS = 120_000;

/**
 * The language model of this device: WebLLM in workers/llm.worker.ts (the person picks a model
 * that fits the device, downloads it with progress, removes it), or an OpenAI-compatible server
 * on the person's own machine (off by default). A ready model is lent to the index worker, where
 * recall's model stages and extraction call it. No model is a normal state.
 */
export class LlmClient {
  phase = $state<LlmPhase>('probing');
  capabilities = $state<WebGpuCapabilities | null>(null);
  budget = $state<VramBudget>({ megabytes: null, source: 'unknown' });
  choices = $state<ModelChoice[]>([]);
  cached = $state<Record<string, boolean>>({});
  active = $state<LlmInfo | null>(null);
  loadingModelId = $state<string | null>(null);
  progress = $state<{ fraction: number; text: string } | null>(null);
  error = $state<VaultError | null>(null);
  choice = $state<LlmChoice | null>(null);
  private worker: Worker | null = null;
  private model: Llm | null = null;
  /** This page's end of the endpoint's channel (closed when the model changes). */
  private lentPort: MessagePort | null = null;
  private loading: AbortController | null = null;
  private started: Promise<void> | null = null;

  readonly statusText = $derived(
    llmStatusText({
      phase: this.phase,
      capabilities: this.capabilities,
      active: this.active,
      loadingModelId: this.loadingModelId,
      progress: this.progress?.fraction ?? null,
    }),
  );

  /** Probes the device, lists models, and brings back the person's saved choice (a cached model or the endpoint). */
  start(): Promise<void> {
    this.started ??= this.init();
    return this.started;
  }

  private async init(): Promise<void> {
    // A restarted index worker gets the model again.
    indexer().onConnected(() => {
      if (this.model) void this.lend(this.model);
    });
    const capabilities = await probeWebGpu(navigatorGpu());
    this.capabilities = capabilities;
    const memory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
    this.budget = vramBudget(null, memory);
    this.choices = modelsForDevice(capabilities, this.budget);
    this.phase = 'none';
    if (capabilities.webgpu) await this.refreshCache();
    this.choice = await (await vaultViews()).setting('llm.choice');
    if (this.choice?.kind === 'openai-compatible') this.useEndpoint(this.choice.baseUrl, this.choice.model, false);
    else if (this.choice?.kind === 'webllm' && capabilities.webgpu && this.cached[this.choice.modelId]) {
      await this.load(this.choice.modelId);
    }
  }

  /** The model that is ready to answer, or null. */
  private setModel(llm: Llm | null): void {
    if (llm === this.model) return;
    this.model = llm;
    void this.lend(llm);
  }

  /**
   * Lends the model to the index worker, where recall and extraction call it: over a fresh
   * MessageChannel whose other end the LLM worker serves (WebLLM: worker to worker, no hop through
   * this page) or this page serves (the OpenAI-compatible endpoint is fetched from here).
   */
  private async lend(llm: Llm | null): Promise<void> {
    this.lentPort?.close();
    this.lentPort = null;
    try {
      if (!llm) return await indexer().setLlm(null, null);
      const { port1, port2 } = new MessageChannel();
      if (llm.kind === 'webllm' && this.worker) {
        this.worker.postMessage({ type: LLM_PORT_MESSAGE, port: port1, modelId: (llm as WebLlm).modelId }, [port1]);
      } else {
        Comlink.expose(serveLlmPort(llm), port1);
        this.lentPort = port1;
      }
      await indexer().setLlm({ id: llm.id, kind: llm.kind }, port2);
    } catch (error) {
      errors.report(error, 'handing the model to recall and extraction');
    }
  }

  async refreshCache(): Promise<void> {
    const next: Record<string, boolean> = {};
    for (const choice of this.choices.filter((c) => c.offered)) {
      const result = await isModelCached(choice.model.modelId);
      next[choice.model.modelId] = result.ok && result.value;
    }
    this.cached = next;
  }

  private async save(choice: LlmChoice | null): Promise<void> {
    this.choice = choice;
    await vaultWorker().call('setPreference', ['llm.choice', choice]);
  }

  /** Downloads (when not cached) and loads a WebLLM model in the LLM worker. */
  async load(modelId: string): Promise<void> {
    await this.unload();
    const controller = new AbortController();
    this.loading = controller;
    this.loadingModelId = modelId;
    this.phase = 'loading';
    this.error = null;
    this.progress = { fraction: 0, text: 'Starting…' };
    const timer = setTimeout(() => controller.abort(), LOAD_TIMEOUT_MS);
    try {
      // A worker script URL, not reactive state.
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      this.worker = new Worker(new URL('../../../workers/llm.worker.ts', import.meta.url), { type: 'module', name: 'llm' });
      const llm = await createWebLlm({
        modelId,
        worker: this.worker,
        capabilities: this.capabilities ?? (await probeWebGpu(navigatorGpu())),
        signal: controller.signal,
        defaultTimeoutMs: CALL_TIMEOUT_MS,
        onProgress: (p) => (this.progress = { fraction: p.progress, text: p.text }),
      });
      this.active = { id: llm.id, kind: 'webllm' };
      this.phase = 'ready';
      this.setModel(llm);
      await this.save({ kind: 'webllm', modelId });
      await this.refreshCache();
    } catch (thrown) {
      this.terminateWorker();
      this.error =
        controller.signal.aborted && !this.error
          ? vaultError('llm/cancelled', 'Loading the model was cancelled.')
          : toVaultError(thrown, 'llm/failed');
      this.phase = 'failed';
    } finally {
      clearTimeout(timer);
      this.loading = null;
      this.loadingModelId = null;
      this.progress = null;
    }
  }

  /** Stops a download or load in progress. */
  cancel(): void {
    this.loading?.abort();
  }

  /** Frees the model; the stated fallbacks run from now on. */
  async unload(): Promise<void> {
    const current = this.model;
    this.setModel(null);
    this.active = null;
    if (current && current.kind === 'webllm') await (current as WebLlm).dispose().catch(() => undefined);
    this.terminateWorker();
    if (this.phase !== 'probing') this.phase = 'none';
  }

  private terminateWorker(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  /** Removes a model's files from the browser cache (unloading it first when it is in use). */
  async remove(modelId: string): Promise<void> {
    if (this.active?.id === `webllm:${modelId}`) {
      await this.unload();
      await this.save(null);
    }
    const result = await removeCachedModel(modelId);
    if (!result.ok) throw result.error;
    await this.refreshCache();
  }

  /** Uses the person's OpenAI-compatible server (text goes to that URL: the UI says so before this is called). */
  useEndpoint(baseUrl: string, model: string, persist = true): void {
    const checked = checkEndpointUrl(baseUrl);
    if (!checked.ok) {
      this.error = checked.error;
      return;
    }
    void this.unload().then(async () => {
      const llm = new OpenAiCompatibleLlm({ baseUrl: checked.value, model: model.trim() || 'default', defaultTimeoutMs: CALL_TIMEOUT_MS });
      this.active = { id: llm.id, kind: 'openai-compatible' };
      this.phase = 'ready';
      this.error = null;
      this.setModel(llm);
      if (persist) await this.save({ kind: 'openai-compatible', baseUrl: checked.value, model: model.trim() || 'default' });
    });
  }

  /** Turns the endpoint (or a WebLLM model) off: nothing is sent anywhere, the fallbacks run. */
  async turnOff(): Promise<void> {
    await this.unload();
    await this.save(null);
  }
}

let instance: LlmClient | null = null;

/** The app's one LLM client (browser only). */
export function llmClient(): LlmClient {
  instance ??= new LlmClient();
  return instance;
}
