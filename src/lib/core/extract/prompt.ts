import type { LlmMessage } from '../api/llm';
import { CATEGORIES, MAX_UNIT_WORDS } from './units';
import type { ExtractionWindow } from './windows';

/**
 * The extraction prompt. Extraction is a deterministic reformatting, not a summary: every discrete
 * unit of meaning, each in one short declarative sentence, nothing judged away.
 */
export const EXTRACTION_SYSTEM_PROMPT = [
  'You reformat a conversation into atomic units of meaning. This is extraction, not summarization.',
  'Rules:',
  '1. Find every discrete unit of meaning in the cited messages: claims, decisions, questions, constraints, facts, action items. Do not judge importance; omit nothing.',
  `2. Write each unit as ONE declarative sentence of at most ${MAX_UNIT_WORDS} words, in minimum viable language. Never combine two units in one sentence.`,
  '3. When the same idea is repeated, write it once and cite every message that states it. Never drop an idea.',
  '4. A "decision" is credited only to the user: use kind "decision" only when a message with role user commits to a choice, and cite that user message. Suggestions in assistant messages are ideas (kind "claim", category "Ideas"), never decisions.',
  '5. Vague, tentative or exploratory ideas go to category "Provisional/Exploratory". Keep their uncertainty; never tighten them into confident claims.',
  `6. Categories: ${CATEGORIES.join(', ')}. Kinds: claim, decision, question, constraint, fact, action-item. Topics are short sentences naming what the conversation is about.`,
  '7. Every unit cites, in "sources", the labels (m1, m2, ...) of the messages it came from. The message labelled c1 is earlier context: read it, never cite it.',
  '8. Answer with JSON only: {"units": [{"kind": ..., "category": ..., "text": ..., "sources": [...]}]}.',
].join('\n');

function renderMessage(m: ExtractionWindow['messages'][number]): string {
  const part = m.part ? ` part=${m.part.index + 1}/${m.part.of}` : '';
  const context = m.context ? ' context=true' : '';
  return `<message label="${m.label}" role="${m.role}"${part}${context}>\n${m.text}\n</message>`;
}

export function buildExtractionPrompt(window: ExtractionWindow): LlmMessage[] {
  const body = window.messages.map(renderMessage).join('\n');
  return [
    { role: 'system', content: EXTRACTION_SYSTEM_PROMPT },
    { role: 'user', content: `Extract every unit from these messages.\n\n${body}` },
  ];
}

/** Labels a unit may cite in this window (context messages excluded). */
export function citableLabels(window: ExtractionWindow): string[] {
  return window.messages.filter((m) => !m.context).map((m) => m.label);
}
