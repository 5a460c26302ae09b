/**
 * One hnswlib-wasm runtime per realm, loaded once, and one queue for its file system: syncing or
 * reading several indexes at once throws inside Emscripten's IDBFS.
 */
import { type HnswlibModule, loadHnswlib, syncFileSystem, waitForFileSystemSynced } from 'hnswlib-wasm';

let runtime: Promise<HnswlibModule> | null = null;
let queue: Promise<unknown> = Promise.resolve();

export function hnswlib(): Promise<HnswlibModule> {
  runtime ??= loadHnswlib();
  return runtime;
}

/** Runs `task` after every earlier file-system task has settled. */
export function exclusive<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

export const readFileSystem = (): Promise<void> => syncFileSystem('read');
export const fileSystemSynced = (): Promise<void> => waitForFileSystemSynced();
