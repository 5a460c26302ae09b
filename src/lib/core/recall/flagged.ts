/**
 * What the Recall screen shows before Copy: every item of the package that read-time sanitizing
 * changed or flagged, and what the package does with it (a flagged line left out with a marker, or
 * kept quoted; a secret redacted; hidden characters removed).
 */
import type { FlaggedLinePolicy } from './budget';
import type { PackageEntry } from './package-format';

export interface FlaggedItem {
  ref: string;
  rank: number;
  sourceTitle: string | null;
  provenance: PackageEntry['provenance'];
  /** Kinds of possible prompt injection found (`ignore-instructions`, `forged-turn`, ...). */
  injection: string[];
  /** Kinds of secrets redacted. */
  redacted: string[];
  /** Invisible characters spelled hidden text (removed). */
  hiddenText: boolean;
  /** One sentence per finding: what was found and what the package does with it. */
  notes: string[];
}

const after = (flags: readonly string[], prefix: string) => flags.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length));

export function flaggedItems(entries: readonly PackageEntry[], policy: FlaggedLinePolicy): FlaggedItem[] {
  const out: FlaggedItem[] = [];
  for (const entry of entries) {
    const injection = after(entry.flags, 'injection:');
    const redacted = after(entry.flags, 'redacted:');
    const hiddenText = entry.flags.includes('hidden-text');
    if (injection.length === 0 && redacted.length === 0 && !hiddenText) continue;
    const notes: string[] = [];
    if (injection.length > 0) {
      notes.push(
        `Possible prompt injection (${injection.join(', ')}): ${
          policy === 'quote'
            ? 'the line is kept in the package, quoted as data.'
            : 'the line is left out of the package, with a marker naming this source.'
        }`,
      );
    }
    if (redacted.length > 0) notes.push(`Secret redacted (${redacted.join(', ')}).`);
    if (hiddenText) notes.push('Hidden characters that spelled text were removed.');
    out.push({
      ref: entry.ref,
      rank: entry.rank,
      sourceTitle: entry.sourceTitle,
      provenance: entry.provenance,
      injection,
      redacted,
      hiddenText,
      notes,
    });
  }
  return out;
}
