import * as Comlink from 'comlink';
import { isVaultError, toVaultError, vaultError, type VaultError } from '../core/errors';

/** What the client needs of a worker: a comlink endpoint that can be terminated and reports errors. */
export interface WorkerHandle extends Comlink.Endpoint {
  terminate(): void;
}

export interface RpcClientOptions {
  /** Human name of the worker, for error messages ("the pipeline worker"). */
  name: string;
  spawn: () => WorkerHandle;
  /** Default per-call timeout. */
  timeoutMs?: number;
  /** Time a liveness ping may take after a call timed out before the worker is declared dead. */
  pingTimeoutMs?: number;
  /** Called after the worker was replaced (re-subscribe here). */
  onRestart?: (reason: VaultError) => void;
}

type Method<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];
type Args<T, K extends keyof T> = T[K] extends (...args: infer A) => unknown ? A : never;
type Ret<T, K extends keyof T> = T[K] extends (...args: never[]) => infer R ? Awaited<R> : never;

export type Latest<V> = { stale: false; value: V } | { stale: true };

interface Inflight {
  reject(error: VaultError): void;
}

/**
 * A typed comlink client with the guarantees the app relies on: every call has a timeout; a worker
 * that reports an error or stops answering is terminated and replaced, and its in-flight calls fail
 * with `worker/crashed`; `latest()` drops results a newer request on the same channel superseded.
 */
export class RpcClient<T extends { ping(): Promise<unknown> }> {
  private handle: WorkerHandle | null = null;
  private remote: Comlink.Remote<T> | null = null;
  private readonly inflight = new Set<Inflight>();
  private readonly latestIds = new Map<string, number>();
  private requestSeq = 0;
  private disposed = false;
  restarts = 0;

  constructor(private readonly options: RpcClientOptions) {}

  private ensure(): Comlink.Remote<T> {
    if (this.disposed) throw vaultError('worker/unavailable', `The ${this.options.name} has been shut down.`);
    if (!this.remote) {
      const handle = this.options.spawn();
      handle.addEventListener('error', (event) => {
        if (this.handle !== handle) return;
        const message = (event as ErrorEvent).message || 'it stopped with an error';
        this.restart(vaultError('worker/crashed', `The ${this.options.name} crashed (${message}); it was restarted.`));
      });
      handle.addEventListener('messageerror', () => {
        if (this.handle !== handle) return;
        this.restart(vaultError('worker/crashed', `The ${this.options.name} sent a message that could not be read; it was restarted.`));
      });
      this.handle = handle;
      this.remote = Comlink.wrap<T>(handle);
    }
    return this.remote;
  }

  /** Calls `method` on the worker with a timeout. Errors arrive in the one error shape. */
  async call<K extends Method<T>>(method: K, args: Args<T, K>, timeoutMs = this.options.timeoutMs ?? 30_000): Promise<Ret<T, K>> {
    const remote = this.ensure();
    const generation = this.handle;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let entry: Inflight | undefined;
    const guard = new Promise<never>((_, reject) => {
      entry = { reject };
      this.inflight.add(entry);
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => {
          reject(
            vaultError(
              'worker/timeout',
              `The ${this.options.name} did not answer "${String(method)}" within ${Math.round(timeoutMs / 1000)} s.`,
            ),
          );
          void this.checkAlive(generation);
        }, timeoutMs);
      }
    });
    try {
      const fn = (remote as unknown as Record<PropertyKey, (...a: unknown[]) => Promise<unknown>>)[method as PropertyKey]!;
      return (await Promise.race([fn(...(args as unknown[])), guard])) as Ret<T, K>;
    } catch (thrown) {
      throw isVaultError(thrown) ? thrown : toVaultError(thrown, 'internal/unexpected');
    } finally {
      clearTimeout(timer);
      if (entry) this.inflight.delete(entry);
    }
  }

  /**
   * Like `call`, but only the newest request on `channel` yields a value: an older one that
   * finishes later resolves `{ stale: true }` (typing ahead of a slow search, say).
   */
  async latest<K extends Method<T>>(channel: string, method: K, args: Args<T, K>, timeoutMs?: number): Promise<Latest<Ret<T, K>>> {
    const id = ++this.requestSeq;
    this.latestIds.set(channel, id);
    try {
      const value = await this.call(method, args, timeoutMs);
      return this.latestIds.get(channel) === id ? { stale: false, value } : { stale: true };
    } catch (error) {
      if (this.latestIds.get(channel) !== id) return { stale: true };
      throw error;
    }
  }

  /** After a timeout: a worker that cannot even answer a ping is considered dead and replaced. */
  private async checkAlive(generation: WorkerHandle | null): Promise<void> {
    if (!generation || generation !== this.handle || !this.remote) return;
    const pingMs = this.options.pingTimeoutMs ?? 2_000;
    const alive = await Promise.race([
      this.remote.ping().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), pingMs)),
    ]);
    if (!alive && generation === this.handle) {
      this.restart(vaultError('worker/crashed', `The ${this.options.name} stopped answering; it was restarted.`));
    }
  }

  /** Terminates the worker, fails in-flight calls with `reason`, and starts a fresh worker. */
  restart(reason: VaultError = vaultError('worker/crashed', `The ${this.options.name} was restarted.`)): void {
    this.teardown(reason);
    if (this.disposed) return;
    this.restarts += 1;
    this.ensure();
    this.options.onRestart?.(reason);
  }

  private teardown(reason: VaultError): void {
    const remote = this.remote;
    const handle = this.handle;
    this.remote = null;
    this.handle = null;
    for (const entry of [...this.inflight]) entry.reject(reason);
    this.inflight.clear();
    if (remote) remote[Comlink.releaseProxy]();
    handle?.terminate();
  }

  dispose(): void {
    this.disposed = true;
    this.teardown(vaultError('worker/unavailable', `The ${this.options.name} has been shut down.`));
  }
}
