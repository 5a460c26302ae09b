/**
 * Candidates held for a person. A candidate extracted from a message that write-time safety flagged
 * (possible prompt injection, hidden text), or whose own text was flagged, carries those flags and
 * `HELD_FLAG`: it stays out of retrieval, and the curator never proposes keeping it, until a person
 * keeps it in the Inbox (which lifts the hold; the flags stay, so the Inbox and the package still
 * say what was found). A poisoned chat cannot turn itself into a memory that steers later prompts.
 */
import type { NoteRecord } from '../records';

export const HELD_FLAG = 'held:flagged-source';

/** A write-time safety flag: the text may be an instruction to a model, or hid characters. */
export function isSafetyFlag(flag: string): boolean {
  return flag.startsWith('injection:') || flag === 'hidden-text';
}

/**
 * A candidate's flags with its source messages' flags inherited, and the hold added when any of
 * them (or its own) is a safety flag.
 */
export function withSourceFlags(own: readonly string[], sources: readonly (readonly string[])[]): string[] {
  const flags = new Set([...own, ...sources.flat()]);
  if ([...flags].some(isSafetyFlag)) flags.add(HELD_FLAG);
  return [...flags];
}

export function isHeld(note: Pick<NoteRecord, 'flags'>): boolean {
  return note.flags.includes(HELD_FLAG);
}

/** The flags once a person kept the note: the hold is lifted, what was found stays. */
export function liftHold(flags: readonly string[]): string[] {
  return flags.filter((f) => f !== HELD_FLAG);
}
