import { describeError, type ErrorText } from '../core/error-text';
import type { VaultError } from '../core/errors';

export interface ShownError extends ErrorText {
  id: number;
  error: VaultError;
  /** Where it happened ("while importing chat.json"). */
  context: string | null;
  at: number;
}

/**
 * The one place every error goes: a sentence and a next step for the person, deduplicated while
 * shown, newest first. Components never show raw exceptions.
 */
class ErrorCenter {
  items = $state<ShownError[]>([]);
  private seq = 0;

  report(thrown: unknown, context: string | null = null): ShownError {
    const text = describeError(thrown);
    const existing = this.items.find((e) => e.error.code === text.error.code && e.sentence === text.sentence && e.context === context);
    if (existing) return existing;
    const shown: ShownError = { ...text, id: ++this.seq, context, at: Date.now() };
    this.items = [shown, ...this.items].slice(0, 5);
    if (typeof console !== 'undefined') console.warn('[engram]', text.error.code, text.error.message, text.error.detail ?? '');
    return shown;
  }

  dismiss(id: number): void {
    this.items = this.items.filter((e) => e.id !== id);
  }
}

export const errors = new ErrorCenter();

/** Routes uncaught errors and unhandled rejections to the error center. */
export function installGlobalErrorHandlers(target: Window): () => void {
  const onError = (event: ErrorEvent) => errors.report(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => errors.report(event.reason);
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

/** Runs `work`, reporting a failure instead of throwing it; returns undefined on failure. */
export async function attempt<T>(work: () => Promise<T>, context: string | null = null): Promise<T | undefined> {
  try {
    return await work();
  } catch (thrown) {
    errors.report(thrown, context);
    return undefined;
  }
}
