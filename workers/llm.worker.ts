/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { serveWebLlm, type WorkerScopeLike } from '../src/lib/models/webllm-worker-handler';

/*
 * The in-browser LLM worker: WebLLM's own handler owns the engine (weights on the GPU, generation)
 * and answers the page-side `CreateWebWorkerMLCEngine` (src/lib/models/webllm-create.ts), which the
 * LLM client (src/lib/client/llm.svelte.ts) wraps as an `Llm`. WebLLM's message protocol, not
 * comlink: the library defines both ends.
 */
serveWebLlm(self as unknown as WorkerScopeLike);
