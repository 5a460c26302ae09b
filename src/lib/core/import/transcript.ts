/**
 * Plain and Markdown transcripts, pasted or dropped: turns start at a speaker line such as
 * `User: ...`, `**Assistant:**`, `**Claude**:`, `### User`, `## Prompt:` or `You said:` (the
 * chatgpt.com copy format). Lines inside fenced code blocks (``` or ~~~) never start a turn, so a
 * pasted log with `User:` in it stays in its message. Text with fewer than two turns, or without
 * both a person and a model speaking, is not a chat: it becomes one resource.
 */
import type { Role } from '../records';
import { finishConversation, type ElementResult } from './context';
import type { ParsedMessage, ParsedResource } from './parsed';
import { clip } from './read';
import { derivedId, derivedMessageId } from './stable-id';

const USER_NAMES = ['user', 'human', 'me', 'you'];
const USER_LABELS = ['prompt', 'question'];
const MODEL_NAMES = [
  'assistant',
  'ai',
  'chatgpt',
  'claude',
  'gemini',
  'bard',
  'grok',
  'deepseek',
  'copilot',
  'bing',
  'llama',
  'mistral',
  'bot',
];
const MODEL_LABELS = ['model', 'response', 'answer'];
const GPT = 'gpt(?:-?[\\w.]+)?';
const SUFFIX = '(?:[ -](?:\\d[\\w.]*|sonnet|opus|haiku|pro|flash|ultra|mini|turbo|o\\d[\\w-]*)){0,3}';
const ALL = [...USER_NAMES, ...USER_LABELS, ...MODEL_NAMES, ...MODEL_LABELS, 'system', 'tool'];

/** Names allowed in any form; labels like "Question:" only in headings and bold (FAQ prose uses them). */
const NAME = `((?:${[...ALL].join('|')}|${GPT})${SUFFIX})`;
const PLAIN_NAME = `((?:${[...USER_NAMES, ...MODEL_NAMES, 'system'].join('|')}|${GPT})${SUFFIX})`;

const SPEAKER_PATTERNS: readonly RegExp[] = [
  // ### User   /   ## Assistant:   /   ## **Prompt:** text
  new RegExp(
    `^ {0,3}#{1,6}[ \\t]+(?:\\*\\*|__)?${NAME}[ \\t]*(?::[ \\t]*(?:\\*\\*|__)?[ \\t]*(.*)|(?:\\*\\*|__)?[ \\t]*:?[ \\t]*())$`,
    'iu',
  ),
  // **User:** text   /   **User**: text   /   **Assistant** (alone on its line)
  new RegExp(`^ {0,3}(?:\\*\\*|__)${NAME}[ \\t]*(?::[ \\t]*(?:\\*\\*|__)|(?:\\*\\*|__)[ \\t]*:)[ \\t]*(.*)$`, 'iu'),
  new RegExp(`^ {0,3}(?:\\*\\*|__)${NAME}(?:\\*\\*|__)[ \\t]*()$`, 'iu'),
  // You said: / ChatGPT said:
  new RegExp(`^ {0,3}(?:\\*\\*)?${NAME} said:(?:\\*\\*)?[ \\t]*(.*)$`, 'iu'),
  // User: text   /   [Assistant]: text
  new RegExp(`^ {0,3}\\[?${PLAIN_NAME}\\]?[ \\t]*:[ \\t]*(.*)$`, 'iu'),
];

export interface Turn {
  role: Role;
  /** The speaker as written ("Claude 3.5 Sonnet"). */
  speaker: string;
  text: string;
}

export interface SplitTranscript {
  preamble: string;
  turns: Turn[];
}

function roleOfName(name: string): Role {
  const first = name.toLowerCase().split(/[ -]/u)[0]!;
  if (USER_NAMES.includes(first) || USER_LABELS.includes(first)) return 'user';
  if (first === 'system') return 'system';
  if (first === 'tool') return 'tool';
  return 'assistant';
}

function matchSpeaker(line: string): { speaker: string; rest: string } | null {
  for (const re of SPEAKER_PATTERNS) {
    const m = re.exec(line);
    if (m) return { speaker: m[1]!, rest: m[2] ?? m[3] ?? '' };
  }
  return null;
}

/** Trims blank lines at both ends, keeping the inner text exactly. */
function trimBlankLines(lines: string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b).join('\n');
}

export function splitTranscript(text: string): SplitTranscript {
  const lines = text.replace(/\r\n?/gu, '\n').split('\n');
  const turns: { role: Role; speaker: string; lines: string[] }[] = [];
  const preamble: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of lines) {
    const f = /^ {0,3}(`{3,}|~{3,})(.*)$/u.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence.char && f[1]!.length >= fence.length && f[2]!.trim() === '') fence = null;
    } else if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) {
      fence = { char: f[1]![0]!, length: f[1]!.length };
    } else {
      const speaker = matchSpeaker(line);
      if (speaker) {
        turns.push({ role: roleOfName(speaker.speaker), speaker: speaker.speaker, lines: [speaker.rest] });
        continue;
      }
    }
    (turns.at(-1)?.lines ?? preamble).push(line);
  }
  return {
    preamble: trimBlankLines(preamble),
    turns: turns.map((t) => ({ role: t.role, speaker: t.speaker, text: trimBlankLines(t.lines) })),
  };
}

/** A chat needs two turns or more, with both a person and a model speaking. */
export function isTranscript(split: SplitTranscript): boolean {
  return split.turns.length >= 2 && split.turns.some((t) => t.role === 'user') && split.turns.some((t) => t.role === 'assistant');
}

/** A speaker's name is a label, not content: long ones are clipped. */
const SPEAKER_CHARS = 60;

const HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/u;

export function parseTranscript(text: string): ElementResult {
  const split = splitTranscript(text);
  if (!isTranscript(split)) return { skipped: { what: 'transcript', reason: 'it has no turns of both a person and a model' } };
  const notes: string[] = [];
  const messages: ParsedMessage[] = [];
  let parent: string | null = null;
  const push = (role: Role, body: string, hidden: boolean, contentType: string, speaker?: string) => {
    const externalId = derivedMessageId(messages.length, role, body);
    messages.push({
      externalId,
      role,
      text: body,
      createdAt: null,
      parentExternalId: parent,
      onVisiblePath: true,
      hidden,
      contentType,
      ...(speaker ? { speaker: clip(speaker, SPEAKER_CHARS) } : {}),
    });
    parent = externalId;
  };
  const heading = split.preamble.includes('\n') ? null : HEADING.exec(split.preamble);
  if (split.preamble !== '' && !heading) {
    push('system', split.preamble, true, 'preamble');
    notes.push('text before the first speaker was kept as a hidden preamble');
  }
  const speakers = new Set(split.turns.map((t) => t.speaker));
  for (const turn of split.turns) push(turn.role, turn.text, false, 'text', turn.speaker);
  const firstUser = split.turns.find((t) => t.role === 'user')?.text ?? split.turns[0]!.text;
  const firstModel = split.turns.find((t) => t.role === 'assistant')?.text ?? '';
  return {
    conversation: finishConversation({
      source: 'transcript',
      externalId: derivedId('transcript', firstUser, firstModel),
      title: heading ? clip(heading[1]!, 80) : clip(firstUser, 80),
      createdAt: null,
      updatedAt: null,
      messages,
      notes: [...notes, `speakers: ${[...speakers].map((s) => clip(s, 30)).join(', ')}`],
    }),
  };
}

/** Text that is not a chat: one resource, titled by its first line. */
export function parseTextResource(text: string): ParsedResource {
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const title = clip(firstLine.replace(/^ {0,3}#{1,6}[ \t]+/u, '').replace(/^[*_>\-\s]+|[*_\s]+$/gu, ''), 80);
  return { externalId: derivedId('text', text), title: title || 'Pasted text', text };
}
