/**
 * Flags for one level of text (DESIGN: "a level with more than four bullets, or no governing idea,
 * is flagged"): many sibling bullets usually pack several concepts into one level, and a level of
 * bullets without a sentence of prose has nothing that says what they are about.
 */
import { splitSentences } from '../text/sentences';
import type { ChunkFlag } from './types';

const TOP_BULLET = /^ {0,1}(?:[-*+]|\d{1,3}[.)])\s+\S/u;
const BULLET = /^\s*(?:[-*+]|\d{1,3}[.)])\s/u;
const HEADING = /^\s{0,3}#{1,6}\s/u;

/** Top-level bullets of a level (nested bullets belong to their parent bullet). */
export function countTopBullets(text: string): number {
  let inFence = false;
  let n = 0;
  for (const line of text.split('\n')) {
    if (/^ {0,3}(`{3,}|~{3,})/u.test(line)) inFence = !inFence;
    else if (!inFence && TOP_BULLET.test(line)) n++;
  }
  return n;
}

function hasProse(text: string): boolean {
  return splitSentences(text).some((s) => s.kind === 'sentence' && !BULLET.test(s.text) && !HEADING.test(s.text));
}

export function levelFlags(text: string, maxBullets: number, oversized: boolean): ChunkFlag[] {
  const flags: ChunkFlag[] = [];
  const bullets = countTopBullets(text);
  if (bullets > maxBullets) flags.push('too-many-bullets');
  if (bullets > 0 && !hasProse(text)) flags.push('no-governing-idea');
  if (oversized) flags.push('oversized');
  return flags;
}
