import Dexie, { type Table, type TransactionMode } from 'dexie';
import { VaultFailure, toVaultError, vaultError } from '../core/errors';
import type { VaultDb } from './schema';

/** Default time a transaction may take before it is reported as stuck (a full disk can hang one). */
export const DEFAULT_TX_TIMEOUT_MS = 30_000;

/**
 * Time allowed per row a transaction writes: IndexedDB in Chromium adds about 6,400 rows a second
 * here (0.16 ms a row, docs/BENCH.md); 1 ms a row leaves a margin of six for a slower disk.
 */
export const TX_MS_PER_ROW = 1;

/**
 * A timeout for a transaction that writes `rows` rows: the default for small ones, growing with
 * the rows for large ones, so a big import's publish is never cut off by a fixed 30 s while a
 * stuck disk still surfaces.
 */
export function timeoutForRows(rows: number, base: number = DEFAULT_TX_TIMEOUT_MS): number {
  return base + Math.max(0, Math.ceil(rows)) * TX_MS_PER_ROW;
}

export interface TxOptions {
  timeoutMs?: number;
  /** What the operation does, for the error message. */
  label?: string;
}

/**
 * Awaits a store promise with a timeout. A promise that does not settle in time fails with
 * `store/timeout` (after `onTimeout` ran); other failures become the one error shape (quota errors
 * as `store/quota-exceeded`).
 */
export async function withStoreTimeout<T>(promise: Promise<T>, options: TxOptions = {}, onTimeout?: () => void): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TX_TIMEOUT_MS;
  const label = options.label ?? 'a storage operation';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
      reject(
        new VaultFailure(
          vaultError('store/timeout', `Storage did not answer within ${seconds} while doing ${label}.`, { timeoutMs, label }),
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } catch (thrown) {
    if (thrown instanceof VaultFailure) throw thrown;
    throw new VaultFailure(toVaultError(thrown, 'store/failed'));
  } finally {
    clearTimeout(timer);
    // A timed-out operation may still reject later; it has been reported already.
    promise.catch(() => undefined);
  }
}

/** Runs `fn` in one Dexie transaction, awaited with a timeout; a stuck transaction is aborted. */
export function runTx<T>(
  db: VaultDb,
  mode: TransactionMode,
  tables: Table[] | Table,
  fn: () => Promise<T>,
  options: TxOptions = {},
): Promise<T> {
  let abort: (() => void) | undefined;
  const work = db.transaction(mode, Array.isArray(tables) ? tables : [tables], () => {
    const tx = Dexie.currentTransaction;
    abort = () => {
      try {
        tx?.abort();
      } catch {
        // Already finished or aborted: nothing to undo.
      }
    };
    return fn();
  });
  return withStoreTimeout(work, options, () => abort?.());
}
