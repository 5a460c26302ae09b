/**
 * The importer's preparation (write-time safety and hashing, prepare-conversation.ts) in a worker
 * of its own, started with the import and ended with it, so a heavy import's thread parses and
 * writes while another core makes the conversations safe (issue 19). Answers come in the order
 * asked. A worker that cannot start, crashes or sends an unreadable message is dropped, and what
 * it still owed, and everything after, is prepared in the calling thread: the same function, so
 * the same rows; nothing is lost and the import goes on. An error the preparation itself throws
 * comes back as it would in this thread. Closed (the import ended), it rejects what it still owed.
 */
import * as Comlink from 'comlink';
import { vaultError } from '../core/errors';
import type { ParsedConversation } from '../core/import/parsed';
import { prepareWithTallies, type PrepareApi, type PreparedIncoming, type Preparer } from './prepare-conversation';

interface Pending {
  parsed: ParsedConversation;
  resolve: (prepared: Promise<PreparedIncoming>) => void;
}

export function workerPreparer(spawn: () => Worker): Preparer {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<PrepareApi> | null = null;
  let dead = false;
  const pending = new Set<Pending>();

  function drop(): void {
    if (dead) return;
    dead = true;
    worker?.terminate();
    worker = null;
    remote = null;
    // What the worker still owed is prepared here, in the order it was asked.
    for (const owed of pending) owed.resolve(prepareWithTallies(owed.parsed));
    pending.clear();
  }

  function live(): Comlink.Remote<PrepareApi> | null {
    if (dead) return null;
    if (remote) return remote;
    try {
      worker = spawn();
    } catch {
      dead = true;
      return null;
    }
    worker.addEventListener('error', drop);
    worker.addEventListener('messageerror', drop);
    remote = Comlink.wrap<PrepareApi>(worker);
    return remote;
  }

  return {
    prepare(parsed) {
      const api = live();
      if (!api) return prepareWithTallies(parsed);
      return new Promise<PreparedIncoming>((resolve, reject) => {
        const entry: Pending = {
          parsed,
          resolve: (prepared) => {
            prepared.then(resolve, reject);
          },
        };
        pending.add(entry);
        api.prepare(parsed).then(
          (prepared) => {
            if (!pending.delete(entry)) return; // already prepared here after the worker was dropped
            resolve(prepared);
          },
          (thrown: unknown) => {
            if (!pending.delete(entry)) return;
            reject(thrown);
          },
        );
      });
    },
    close() {
      dead = true;
      worker?.terminate();
      worker = null;
      remote = null;
      // Nothing waits for these once the import has ended (a cancel, a failure): not prepared at all.
      for (const owed of pending)
        owed.resolve(Promise.reject(vaultError('import/cancelled', 'The import ended before this conversation was prepared.')));
      pending.clear();
    },
  };
}
