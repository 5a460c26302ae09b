import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';

/** The worker global as the shim uses it (`self` in a dedicated worker; a fake in tests). */
export interface WorkerScopeLike {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

/**
 * Worker side of the in-browser LLM, for `workers/llm.worker.ts`:
 * `serveWebLlm(self as unknown as WorkerScopeLike)`. WebLLM's handler owns the engine and answers
 * the page-side `CreateWebWorkerMLCEngine`. Its replies go to `scope.postMessage` rather than the
 * global, so the same code runs in a worker and in a test.
 */
export function serveWebLlm(scope: WorkerScopeLike): WebWorkerMLCEngineHandler {
  const handler = new WebWorkerMLCEngineHandler();
  handler.postMessage = (message: unknown) => scope.postMessage(message);
  scope.onmessage = (event: MessageEvent) => handler.onmessage(event);
  return handler;
}
