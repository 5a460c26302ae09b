/**
 * Prompts with no subject: a question about a kind of memory ("What did I decide?", "What's on my
 * to-do list?", "What's still open?") or about the vault as a whole ("What did we talk about?").
 * Their only words are the framing, so the model-free relevance judgment (term-coverage.ts) found
 * nothing of "what the prompt is about" in any memory and answered "the vault holds nothing on this",
 * the first thing a person typing them after an import saw. Such a prompt is answered by listing:
 * the notes of its categories (kept and provisional), or the conversations' session summaries, newest
 * first (recall.ts, `scopedRecall`). Only a whole prompt that is nothing but such a question is scoped:
 * "What did I decide about the garden path?" has a subject and is recalled as always.
 */
import type { Category } from '../extract/units';
import { GREETING_FRAME } from './text-features';

export type PromptScope = { kind: 'notes'; categories: Category[]; label: string } | { kind: 'sessions'; label: string };

/** Words around the question that change nothing about its scope ("so far", "in my chats", "please"). */
const FILLER: readonly RegExp[] = [
  GREETING_FRAME,
  /^(?:can|could|would|will) you\s+(?:please\s+)?(?:tell me|remind me|show me|list|give me|summari[sz]e|recap)?\s*/u,
  /^(?:please\s+)?(?:tell me|remind me|show me|list|give me|summari[sz]e|recap|recall)\s*/u,
  /\s+(?:so far|until now|to date|lately|recently|yet|overall|again|in the past|of late)$/u,
  /\s+(?:in|from|across) (?:this|that|these|those|my|our|all (?:my|our|the)|the) (?:chats?|conversations?|vault|sessions?|exports?|archive)$/u,
  /\s+(?:please|then)$/u,
];

const DECIDED =
  '(?:decide|decided|settle on|settled on|choose|chose|pick|picked|agree on|agreed on|commit to|committed to|go with|went with)';
const WE = '(?:i|we)';

const RULES: readonly { pattern: RegExp; scope: PromptScope }[] = [
  {
    pattern: new RegExp(`^(?:what|which things?) (?:did|have|had) ${WE}(?: already| finally)? ${DECIDED}(?: on)?$`, 'u'),
    scope: { kind: 'notes', categories: ['Decisions'], label: 'your decisions' },
  },
  {
    pattern: /^(?:(?:what|which) (?:are|were) )?(?:my|our|the|all (?:my|our|the)) (?:decisions|choices)(?: (?:i|we) (?:made|took))?$/u,
    scope: { kind: 'notes', categories: ['Decisions'], label: 'your decisions' },
  },
  {
    pattern: /^(?:decisions|what was decided|what got decided|what have we decided)$/u,
    scope: { kind: 'notes', categories: ['Decisions'], label: 'your decisions' },
  },
  {
    pattern: new RegExp(
      `^what (?:do|did|should|must) ${WE} (?:still )?(?:need|have|want|plan) to do(?: next)?$|^what(?:'s| is) (?:left|next) (?:to do|on my list)$|^what(?:'s| is) on (?:my|our) (?:to-?do )?list$`,
      'u',
    ),
    scope: { kind: 'notes', categories: ['Action Items'], label: 'your action items' },
  },
  {
    pattern:
      /^(?:(?:what (?:are|were) )?(?:my|our|the|all (?:my|our|the)) )?(?:to-?dos?|to-do list|todo list|tasks|action items|next steps)$/u,
    scope: { kind: 'notes', categories: ['Action Items'], label: 'your action items' },
  },
  {
    pattern: new RegExp(
      `^what (?:is|are|was|were) (?:still )?(?:open|unresolved|undecided|unanswered)$|^what(?:'s| is) (?:still )?(?:open|unresolved|undecided)$|^what (?:did|have) ${WE} (?:leave|left) open$`,
      'u',
    ),
    scope: { kind: 'notes', categories: ['Open Questions'], label: 'your open questions' },
  },
  {
    pattern: /^(?:(?:what (?:are|were) )?(?:my|our|the|all (?:my|our|the)) )?(?:open|unanswered|unresolved) questions$/u,
    scope: { kind: 'notes', categories: ['Open Questions'], label: 'your open questions' },
  },
  {
    pattern: /^(?:(?:what (?:are|were) )?(?:my|our|the|all (?:my|our|the)) )?(?:constraints|requirements|limits)$/u,
    scope: { kind: 'notes', categories: ['Constraints'], label: 'your constraints' },
  },
  {
    pattern: /^(?:(?:what (?:are|were) )?(?:my|our|the|all (?:my|our|the)) )?ideas$|^what ideas (?:did|have) (?:i|we) (?:have|had)$/u,
    scope: { kind: 'notes', categories: ['Ideas'], label: 'your ideas' },
  },
  {
    pattern: new RegExp(
      `^what (?:did|have|do) ${WE} (?:talk|talked|chat|chatted|speak|spoke|spoken|ask|asked)(?: you)? about$|^what (?:did|have) ${WE} (?:ask|asked) you$|^what ${WE} (?:talked|chatted|spoke|asked(?: you)?) about$|^what ${WE} (?:discussed|covered)$|^what (?:did|have) ${WE} (?:discuss|discussed|cover|covered)$|^what(?: is|'s)(?: there)?$|^what (?:chats|conversations) do ${WE} have$|^(?:everything|my chats|my conversations|my vault|the vault)$` +
        `|^what do you (?:know|remember)(?: about (?:me|us))?$|^what (?:have|had) ${WE} been (?:working on|doing|up to)$|^what (?:am i|are we) working on$`,
      'u',
    ),
    // "What's in my vault?" reaches here as "what's": the filler took "in my vault".
    scope: { kind: 'sessions', label: 'your conversations' },
  },
];

/** The prompt's scope when it is nothing but a question about a kind of memory or the whole vault; else null. */
export function promptScope(prompt: string): PromptScope | null {
  let text = prompt
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’]/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[?.!]+$/u, '')
    .trim();
  for (let pass = 0; pass < 4; pass += 1) {
    const before = text;
    for (const filler of FILLER) text = text.replace(filler, '').trim();
    if (text === before) break;
  }
  for (const rule of RULES) if (rule.pattern.test(text)) return rule.scope;
  return null;
}
