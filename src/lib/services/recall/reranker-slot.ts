/**
 * The reranker recall uses on this device: the person's choice (setting `device.recall.reranker`),
 * loaded where the embedders run (the embed worker in the browser, this process in Node), its
 * download progress, and its last error. Recall never waits for it: until it is loaded (or when it
 * failed to load) `current()` is null and the rerank status says why.
 */
import type { ModelDownload } from '../../core/api/index-api';
import { rerankerId, type RerankerChoice, type RerankerState } from '../../core/api/reranker';
import type { Reranker } from '../../core/recall/rerank';
import { toVaultError, vaultError, type VaultError } from '../../core/errors';
import { rerankerLabel } from '../../models/reranker-models';
import type { SettingsRepo } from '../../store/settings-repo';
import type { EmbedderHost, LoadedReranker } from '../index/embedder-host';

export class RerankerSlot {
  private choice: RerankerChoice | null = null;
  private loaded: LoadedReranker | null = null;
  private loading: Promise<LoadedReranker | null> | null = null;
  private error: VaultError | null = null;
  private downloading: ModelDownload | null = null;
  private generation = 0;

  constructor(
    private readonly host: Pick<EmbedderHost, 'loadReranker'>,
    private readonly settings: Pick<SettingsRepo, 'get' | 'set'>,
    private readonly changed: () => void = () => undefined,
  ) {}

  /** The saved choice, loading in the background. */
  async restore(): Promise<void> {
    const saved = await this.settings.get('device.recall.reranker');
    if (saved) void this.start(saved);
  }

  /** Chooses (null: none) and saves it; resolves when the model is loaded or failed to load. */
  async use(choice: RerankerChoice | null): Promise<void> {
    await this.settings.set('device.recall.reranker', choice);
    await this.start(choice);
  }

  private async start(choice: RerankerChoice | null): Promise<void> {
    const generation = ++this.generation;
    const previous = this.loaded;
    this.choice = choice;
    this.loaded = null;
    this.error = null;
    this.downloading = null;
    if (previous && (!choice || previous.id !== rerankerId(choice))) await previous.dispose?.().catch(() => undefined);
    this.changed();
    if (!choice) return;
    if (!this.host.loadReranker) {
      this.error = vaultError('embed/unavailable', 'Rerankers cannot run here.');
      this.changed();
      return;
    }
    const loading = this.host
      .loadReranker(choice, (download) => {
        if (generation !== this.generation) return;
        this.downloading = download;
        this.changed();
      })
      .then(
        (reranker) => {
          if (generation !== this.generation) return null;
          this.loaded = reranker;
          return reranker;
        },
        (thrown: unknown) => {
          if (generation === this.generation) this.error = toVaultError(thrown, 'embed/unavailable');
          return null;
        },
      )
      .finally(() => {
        if (generation !== this.generation) return;
        this.downloading = null;
        this.loading = null;
        this.changed();
      });
    this.loading = loading;
    await loading;
  }

  /** The loaded reranker, or null (none chosen, still loading, failed). */
  current(): Reranker | null {
    return this.loaded;
  }

  /** Why `current()` is null although a reranker is chosen; null otherwise. */
  unavailable(): string | null {
    const state = this.state();
    if (!state || state.state === 'ready') return null;
    if (state.state === 'loading') return `the reranker ${state.label} is still loading`;
    return `the reranker ${state.label} could not be loaded (${state.error?.message ?? 'unknown error'})`;
  }

  chosen(): RerankerChoice | null {
    return this.choice;
  }

  /** Resolves once the chosen reranker has loaded or failed (tests, the CLI). */
  async settled(): Promise<void> {
    await this.loading;
  }

  get download(): ModelDownload | null {
    return this.downloading;
  }

  state(): RerankerState | null {
    if (!this.choice) return null;
    const id = rerankerId(this.choice);
    const label = rerankerLabel(this.choice);
    if (this.loaded) return { id, state: 'ready', device: this.loaded.device, label, error: null };
    if (this.error) return { id, state: 'unavailable', device: null, label, error: { code: this.error.code, message: this.error.message } };
    return { id, state: 'loading', device: null, label, error: null };
  }
}
