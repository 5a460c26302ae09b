/**
 * An in-memory Web Locks manager (the subset the app uses: exclusive and shared modes, ifAvailable,
 * query), one per simulated browser: every "tab" or "worker" of a test shares it, as they share the
 * origin's lock manager in a browser. Node has no Locks API.
 */
interface Waiter {
  name: string;
  mode: LockMode;
  grant: () => void;
}

export class FakeLocks {
  private readonly held: { name: string; mode: LockMode }[] = [];
  private readonly waiting: Waiter[] = [];

  private grantable(name: string, mode: LockMode): boolean {
    const holders = this.held.filter((h) => h.name === name);
    if (holders.length === 0) return true;
    return mode === 'shared' && holders.every((h) => h.mode === 'shared');
  }

  request(name: string, options: LockOptions, callback: (lock: Lock | null) => unknown): Promise<unknown> {
    const mode = options.mode ?? 'exclusive';
    const run = async () => {
      const entry = { name, mode };
      this.held.push(entry);
      try {
        return await callback({ name, mode } as Lock);
      } finally {
        this.held.splice(this.held.indexOf(entry), 1);
        this.wake();
      }
    };
    const queued = this.waiting.some((w) => w.name === name);
    if (this.grantable(name, mode) && !queued) return run();
    if (options.ifAvailable) return Promise.resolve(callback(null));
    return new Promise((resolve, reject) => {
      this.waiting.push({ name, mode, grant: () => void run().then(resolve, reject) });
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiting]) {
      if (!this.grantable(waiter.name, waiter.mode)) continue;
      if (this.waiting.find((w) => w.name === waiter.name) !== waiter) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.grant();
    }
  }

  async query(): Promise<LockManagerSnapshot> {
    return {
      held: this.held.map((h) => ({ name: h.name, mode: h.mode, clientId: 'test' })),
      pending: this.waiting.map((w) => ({ name: w.name, mode: w.mode, clientId: 'test' })),
    };
  }

  names(): string[] {
    return this.held.map((h) => h.name);
  }

  asManager(): LockManager {
    return this as unknown as LockManager;
  }
}
