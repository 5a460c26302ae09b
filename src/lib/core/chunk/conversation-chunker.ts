/**
 * Transcript messages -> retrieval units: one message per unit with its speaker, conversation title
 * and date as context; a long message split on its H1-H4 structure (then between sentences); very
 * short whole turns merged with a neighbour of the same conversation. Every non-blank message is
 * covered exactly once, in order.
 */
import type { Role } from '../records';
import { countTokens } from '../text/token-count';
import { buildContextText, isoDate } from './context-text';
import { levelFlags } from './level-flags';
import { splitStructure } from './split-structure';
import { type ChunkDraft, type ChunkFlag, type ChunkOptions, DEFAULT_CHUNK_OPTIONS } from './types';

export interface ChunkMessage {
  id: string;
  role: Role;
  text: string;
  createdAt: number | null;
  ordinal: number;
  /** A name when the source has one (e.g. "Caroline"); else the role is used. */
  speaker?: string | null;
}

export interface ChunkConversation {
  id: string;
  title: string;
  createdAt: number | null;
}

interface Unit {
  message: ChunkMessage;
  pieceIndex: number;
  start: number;
  end: number;
  text: string;
  headingPath: string[];
  whole: boolean;
  tokens: number;
  flags: ChunkFlag[];
}

const ROLE_NAMES: Record<Role, string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool' };

function speakerOf(message: ChunkMessage): string {
  return message.speaker?.trim() || ROLE_NAMES[message.role];
}

function unitsOf(message: ChunkMessage, options: ChunkOptions, count: (t: string) => number): Unit[] {
  if (!/\S/u.test(message.text)) return [];
  return splitStructure(message.text, 'message', options.maxTokens, count).map((piece, pieceIndex) => {
    const text = message.text.slice(piece.start, piece.end).trim();
    return {
      message,
      pieceIndex,
      start: piece.start,
      end: piece.end,
      text,
      headingPath: piece.headingPath,
      whole: piece.whole,
      tokens: count(text),
      flags: levelFlags(text, options.maxBullets, piece.oversized),
    };
  });
}

const tokensOf = (group: readonly Unit[]) => group.reduce((sum, u) => sum + u.tokens, 0);
const allWhole = (group: readonly Unit[]) => group.every((u) => u.whole);

/** Short whole turns join the previous group when it is made of whole turns and has room, else the next. */
function mergeShort(units: readonly Unit[], options: ChunkOptions): Unit[][] {
  const isShort = (u: Unit) => u.whole && u.tokens < options.minTokens;
  const groups: Unit[][] = [];
  for (const unit of units) {
    const last = groups[groups.length - 1];
    if (isShort(unit) && last && allWhole(last) && tokensOf(last) + unit.tokens <= options.maxTokens) last.push(unit);
    else groups.push([unit]);
  }
  const merged: Unit[][] = [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!;
    const next = groups[i + 1];
    const lone = group.length === 1 && isShort(group[0]!);
    if (lone && next && allWhole(next) && tokensOf(group) + tokensOf(next) <= options.maxTokens) {
      groups[i + 1] = [...group, ...next];
    } else {
      merged.push(group);
    }
  }
  return merged;
}

function toDraft(conversation: ChunkConversation, group: readonly Unit[], count: (t: string) => number): ChunkDraft {
  const first = group[0]!;
  const text = group.map((u) => u.text).join('\n\n');
  const headingPath = group.length === 1 ? first.headingPath : [];
  const date = isoDate(first.message.createdAt ?? conversation.createdAt);
  const flags = [...new Set(group.flatMap((u) => u.flags))];
  return {
    id: `${first.message.id}#${first.pieceIndex}`,
    parentType: 'message',
    parentId: first.message.id,
    conversationId: conversation.id,
    messageIds: [...new Set(group.map((u) => u.message.id))],
    speakers: [...new Set(group.map((u) => u.message.speaker ?? u.message.role))],
    spans: group.map((u) => ({ sourceId: u.message.id, start: u.start, end: u.end })),
    text,
    contextText: buildContextText(
      { title: conversation.title, date },
      headingPath,
      group.map((u) => ({ speaker: speakerOf(u.message), text: u.text })),
    ),
    headingPath,
    tokenCount: group.length === 1 ? first.tokens : count(text),
    flags,
  };
}

export function chunkConversation(
  conversation: ChunkConversation,
  messages: readonly ChunkMessage[],
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
  count: (text: string) => number = countTokens,
): ChunkDraft[] {
  const ordered = [...messages].sort((a, b) => a.ordinal - b.ordinal || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const units = ordered.flatMap((m) => unitsOf(m, options, count));
  return mergeShort(units, options).map((group) => toDraft(conversation, group, count));
}
