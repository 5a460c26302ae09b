import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { vaultError, VaultFailure } from '../../../src/lib/core/errors';
import { exposeApi, exposeApis } from '../../../workers/expose';

class Counter {
  readonly step: () => number = () => 1;
  #count = 0;

  async add(): Promise<number> {
    this.#count += this.#helper();
    return this.#count;
  }

  async fail(): Promise<never> {
    throw new VaultFailure(vaultError('input/invalid', 'no'));
  }

  #helper(): number {
    return this.step();
  }
}

class Greeter {
  constructor(private readonly name: () => string) {}
  async greet(): Promise<string> {
    return `hello ${this.name()}`;
  }
}

function connect<T>(expose: (port: MessagePort) => void): { remote: Comlink.Remote<T>; close(): void } {
  const { port1, port2 } = new MessageChannel();
  expose(port2);
  return {
    remote: Comlink.wrap<T>(port1),
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

describe('exposeApi / exposeApis (what a worker offers over comlink)', () => {
  it("offers a class's methods (not its fields, functions or not, nor #private helpers), errors as plain { code, message }", async () => {
    const { remote, close } = connect<Counter & { step: unknown }>((port) => exposeApi(new Counter(), port));
    try {
      expect(await remote.add()).toBe(1);
      expect(await remote.add()).toBe(2);
      await expect(remote.fail()).rejects.toEqual({ code: 'input/invalid', message: 'no' });
      await expect((remote as unknown as { step(): Promise<unknown> }).step()).rejects.toBeTruthy();
    } finally {
      close();
    }
  });

  it('merges several services, and two offering the same method is an error at start', async () => {
    const { remote, close } = connect<Counter & Greeter & { ping(): Promise<string> }>((port) =>
      exposeApis([{ ping: async () => 'pong' }, new Counter(), new Greeter(() => 'vault')], port),
    );
    try {
      expect(await remote.ping()).toBe('pong');
      expect(await remote.greet()).toBe('hello vault');
      expect(await remote.add()).toBe(1);
    } finally {
      close();
    }
    expect(() => exposeApis([new Counter(), new Counter()], new MessageChannel().port1)).toThrow(/both offer "add"/u);
  });
});
