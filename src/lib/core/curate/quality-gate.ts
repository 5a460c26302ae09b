import { HEDGE } from '../extract/cues';
import { splitClaims } from '../extract/unit-text';
import { MAX_UNIT_WORDS, wordCount } from '../extract/units';
import type { CurationProposal } from './decide';

/** The flags the Inbox shows on a candidate. */
export type QualityFlag = 'too-long' | 'several-claims' | 'hedged' | 'duplicate' | 'contradicts';

/**
 * Quality-gate flags for a candidate's text (which a person may have edited) and, when known,
 * its decision-stage proposal.
 */
export function qualityFlags(text: string, proposal?: CurationProposal | null): QualityFlag[] {
  const flags: QualityFlag[] = [];
  if (wordCount(text) > MAX_UNIT_WORDS) flags.push('too-long');
  if (splitClaims(text).length > 1) flags.push('several-claims');
  if (HEDGE.test(text)) flags.push('hedged');
  if (proposal?.action === 'merge') flags.push('duplicate');
  if (proposal?.action === 'supersede') flags.push('contradicts');
  return flags;
}
