import { describe, expect, it } from 'vitest';
import { RpcClient, type WorkerHandle } from '../../../src/lib/client/rpc';
import { vaultError } from '../../../src/lib/core/errors';
import { exposeApi } from '../../../workers/expose';

interface TestApi {
  ping(): Promise<'pong'>;
  echo(value: string, delayMs: number): Promise<string>;
  hang(): Promise<never>;
  failWith(code: 'store/timeout'): Promise<never>;
}

/**
 * A stand-in for a Worker: the "worker side" is a comlink-exposed API on the other end of a
 * MessageChannel. `crash()` makes it behave like a dead worker: it emits `error` and never answers.
 */
class FakeWorker extends EventTarget implements WorkerHandle {
  readonly port: MessagePort;
  private readonly remotePort: MessagePort;
  terminated = false;
  constructor(spawnIndex: number, frozen: { value: boolean }) {
    super();
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.remotePort = channel.port2;
    const api: TestApi = {
      ping: async () => {
        if (frozen.value) return new Promise<never>(() => undefined);
        return 'pong';
      },
      echo: (value, delayMs) => new Promise((resolve) => setTimeout(() => resolve(`${value}@${spawnIndex}`), delayMs)),
      hang: () => new Promise<never>(() => undefined),
      failWith: async (code) => {
        throw vaultError(code, 'the disk is full');
      },
    };
    exposeApi(api, this.remotePort);
  }
  postMessage(message: unknown, transfer?: Transferable[]): void {
    this.port.postMessage(message, transfer ?? []);
  }
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.port.addEventListener('message', listener as (e: Event) => void);
    else super.addEventListener(type, listener);
    this.port.start();
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.port.removeEventListener('message', listener as (e: Event) => void);
    else super.removeEventListener(type, listener);
  }
  terminate(): void {
    this.terminated = true;
    this.port.close();
    this.remotePort.close();
  }
  crash(): void {
    this.dispatchEvent(Object.assign(new Event('error'), { message: 'out of memory' }));
  }
}

function setup(options: { timeoutMs?: number } = {}) {
  const spawned: FakeWorker[] = [];
  const frozen = { value: false };
  const restarts: string[] = [];
  const client = new RpcClient<TestApi>({
    name: 'test worker',
    timeoutMs: options.timeoutMs ?? 1_000,
    pingTimeoutMs: 50,
    spawn: () => {
      const worker = new FakeWorker(spawned.length, frozen);
      spawned.push(worker);
      return worker;
    },
    onRestart: (reason) => restarts.push(reason.code),
  });
  return { client, spawned, frozen, restarts };
}

describe('RpcClient', () => {
  it('calls through comlink and keeps the error code of a failure', async () => {
    const { client } = setup();
    expect(await client.call('echo', ['hi', 0])).toBe('hi@0');
    await expect(client.call('failWith', ['store/timeout'])).rejects.toEqual({ code: 'store/timeout', message: 'the disk is full' });
    client.dispose();
  });

  it('fails a call that takes too long with worker/timeout', async () => {
    const { client, spawned } = setup({ timeoutMs: 30 });
    await expect(client.call('hang', [])).rejects.toMatchObject({ code: 'worker/timeout' });
    // The worker still answers pings, so it is kept.
    await new Promise((r) => setTimeout(r, 80));
    expect(spawned).toHaveLength(1);
    client.dispose();
  });

  it('a crashed worker is replaced and its in-flight calls fail with worker/crashed', async () => {
    const { client, spawned, restarts } = setup();
    const inflight = client.call('hang', []);
    await new Promise((r) => setTimeout(r, 5));
    spawned[0]!.crash();
    await expect(inflight).rejects.toMatchObject({ code: 'worker/crashed' });
    expect(spawned[0]!.terminated).toBe(true);
    expect(restarts).toEqual(['worker/crashed']);
    expect(await client.call('echo', ['again', 0])).toBe('again@1');
    client.dispose();
  });

  it('a worker that stops answering (even pings) after a timeout is declared dead and replaced', async () => {
    const { client, spawned, frozen } = setup({ timeoutMs: 20 });
    frozen.value = true;
    const first = client.call('hang', []);
    const second = client.call('hang', [], 10_000);
    await expect(first).rejects.toMatchObject({ code: 'worker/timeout' });
    await expect(second).rejects.toMatchObject({ code: 'worker/crashed' });
    expect(spawned).toHaveLength(2);
    expect(spawned[0]!.terminated).toBe(true);
    client.dispose();
  });

  it('latest() drops a result that a newer request on the same channel superseded', async () => {
    const { client } = setup();
    const slow = client.latest('search', 'echo', ['old', 40]);
    const fast = client.latest('search', 'echo', ['new', 0]);
    expect(await fast).toEqual({ stale: false, value: 'new@0' });
    expect(await slow).toEqual({ stale: true });
    client.dispose();
  });
});
