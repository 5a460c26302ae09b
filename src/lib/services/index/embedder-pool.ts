/**
 * The embedders the index has loaded, one per choice: loaded once and shared (a second request
 * waits for the first load), the download of a model while it loads, and the last error of each
 * choice that failed (cleared when it is asked for again). A change announces itself on the feed.
 */
import { choiceId, type EmbedderChoice } from '../../core/api/embedder';
import type { ModelDownload } from '../../core/api/index-api';
import { toVaultError, type VaultError } from '../../core/errors';
import type { ChangeFeed } from './change-feed';
import type { EmbedderHost, LoadedEmbedder } from './embedder-host';

export class EmbedderPool {
  private readonly pending = new Map<string, Promise<LoadedEmbedder>>();
  private readonly ready = new Map<string, LoadedEmbedder>();
  private readonly errors = new Map<string, VaultError>();
  private downloading: ModelDownload | null = null;

  constructor(
    private readonly host: EmbedderHost,
    private readonly feed: ChangeFeed,
  ) {}

  /** A model download in progress, if any. */
  get download(): ModelDownload | null {
    return this.downloading;
  }

  /** The embedder of a choice, loaded once (a download shows as `download` meanwhile). */
  get(choice: EmbedderChoice): Promise<LoadedEmbedder> {
    const id = choiceId(choice);
    const known = this.pending.get(id);
    if (known) return known;
    this.errors.delete(id);
    const loading = this.host
      .load(choice, (download) => {
        this.downloading = download;
        this.feed.emit();
      })
      .then(
        (embedder) => {
          this.ready.set(id, embedder);
          this.settle(id);
          return embedder;
        },
        (thrown: unknown) => {
          this.pending.delete(id);
          this.errors.set(id, toVaultError(thrown, 'embed/unavailable'));
          this.settle(id);
          throw thrown;
        },
      );
    this.pending.set(id, loading);
    return loading;
  }

  private settle(id: string): void {
    if (this.downloading?.embedderId === id) this.downloading = null;
    this.feed.emit();
  }

  /** The embedder if it is loaded already (for the status), without loading it. */
  loaded(choice: EmbedderChoice): LoadedEmbedder | null {
    return this.ready.get(choiceId(choice)) ?? null;
  }

  errorOf(choice: EmbedderChoice): VaultError | null {
    return this.errors.get(choiceId(choice)) ?? null;
  }

  async unload(choice: EmbedderChoice): Promise<void> {
    const id = choiceId(choice);
    const embedder = this.ready.get(id);
    this.pending.delete(id);
    this.ready.delete(id);
    await embedder?.dispose?.();
  }
}
