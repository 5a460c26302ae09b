/**
 * The seam between whoever provides a language model on the page (the LLM client: WebLLM in
 * workers/llm.worker.ts or the person's OpenAI-compatible endpoint) and whoever uses one (recall's
 * decomposition and fit-gate, extraction). No model is a normal state: users read `null` and fall back.
 */
import type { Llm } from '../core/api/llm';

let active: Llm | null = null;
const listeners = new Set<(llm: Llm | null) => void>();

/** The model the person chose and that is ready to answer, or null. */
export function activeLlm(): Llm | null {
  return active;
}

/** Called by the LLM client when a model becomes ready, changes or goes away. */
export function setActiveLlm(llm: Llm | null): void {
  if (llm === active) return;
  active = llm;
  for (const listener of listeners) listener(llm);
}

/** Subscribes to changes of the active model; returns the unsubscribe function. */
export function onActiveLlmChange(listener: (llm: Llm | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
