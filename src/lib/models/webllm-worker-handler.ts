import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import * as Comlink from 'comlink';
import { LLM_PORT_MESSAGE } from '../core/api/llm-port';
import { serveLlmPort } from './llm-port';
import { WebLlm, type WebLlmEngineLike } from './webllm-llm';

/** The worker global as the shim uses it (`self` in a dedicated worker; a fake in tests). */
export interface WorkerScopeLike {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

interface PortMessage {
  type: typeof LLM_PORT_MESSAGE;
  port: MessagePort;
  modelId: string;
}

const isPortMessage = (data: unknown): data is PortMessage =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === LLM_PORT_MESSAGE;

/**
 * Worker side of the in-browser LLM, for `workers/llm.worker.ts`:
 * `serveWebLlm(self as unknown as WorkerScopeLike)`. WebLLM's handler owns the engine and answers
 * the page-side `CreateWebWorkerMLCEngine` (loading, progress, unloading). Its replies go to
 * `scope.postMessage` rather than the global, so the same code runs in a worker and in a test. A
 * port the page hands over (LLM_PORT_MESSAGE) serves the loaded model to the index worker
 * directly (core/api/llm-port.ts), so recall's and extraction's calls never pass through the page.
 */
export function serveWebLlm(scope: WorkerScopeLike): WebWorkerMLCEngineHandler {
  const handler = new WebWorkerMLCEngineHandler();
  handler.postMessage = (message: unknown) => scope.postMessage(message);
  scope.onmessage = (event: MessageEvent) => {
    const data: unknown = event.data;
    if (isPortMessage(data)) {
      Comlink.expose(serveLlmPort(new WebLlm(handler.engine as unknown as WebLlmEngineLike, data.modelId)), data.port);
      return;
    }
    handler.onmessage(event);
  };
  return handler;
}
