/**
 * What the Search index card says when its work cannot go on: a waiting index job whose last
 * attempt failed (a full disk, say) or a queue that could not be read. Without it the card showed
 * "Up to date" while indexing had stopped.
 */
import type { IndexWork } from '../api/index-api';
import { describeError } from '../error-text';

export interface IndexWorkNotice {
  kind: 'failing' | 'unread';
  text: string;
}

export function indexWorkNotice(work: IndexWork, now: number, duration: (ms: number) => string): IndexWorkNotice | null {
  if (work.unread) {
    const { sentence, nextStep } = describeError(work.unread);
    return { kind: 'unread', text: `The index's work queue could not be read: ${sentence} ${nextStep}` };
  }
  if (work.failing) {
    const { sentence, nextStep } = describeError(work.failing.error);
    const wait = work.failing.retryAt - now;
    const retry = wait > 0 ? `It tries again in ${duration(wait)}.` : 'It tries again now.';
    return { kind: 'failing', text: `An indexing task failed: ${sentence} ${nextStep} ${retry}` };
  }
  return null;
}
