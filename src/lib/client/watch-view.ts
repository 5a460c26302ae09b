import { liveQuery, type Subscription } from 'dexie';
import { vaultViews, type VaultViews } from '../store/views/vault-views';

/**
 * Watches one view query (a `liveQuery` over the vault's views) until the returned stop is called:
 * `next` gets each result, `failed` an error (the views failing to open, or the query).
 */
export function watchView<T>(
  read: (views: VaultViews) => Promise<T>,
  next: (value: T) => void,
  failed: (error: unknown) => void,
): () => void {
  let subscription: Subscription | null = null;
  let stopped = false;
  void vaultViews().then((views) => {
    if (stopped) return;
    subscription = liveQuery(() => read(views)).subscribe({ next, error: failed });
  }, failed);
  return () => {
    stopped = true;
    subscription?.unsubscribe();
  };
}
