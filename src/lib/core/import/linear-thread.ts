import type { ParsedMessage } from './parsed';

/** One visible turn of a conversation without branches. */
export type LinearTurn = Pick<ParsedMessage, 'externalId' | 'role' | 'text' | 'createdAt'> & { speaker?: string };

/** Turns in order as one visible thread: each the child of the one before, none hidden. */
export function linearThread(turns: readonly LinearTurn[]): ParsedMessage[] {
  return turns.map((turn, i) => ({
    externalId: turn.externalId,
    role: turn.role,
    ...(turn.speaker !== undefined ? { speaker: turn.speaker } : {}),
    text: turn.text,
    createdAt: turn.createdAt,
    parentExternalId: i === 0 ? null : turns[i - 1]!.externalId,
    onVisiblePath: true,
    hidden: false,
    contentType: 'text',
  }));
}
