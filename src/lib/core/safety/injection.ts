/**
 * Lines that read like instructions to a model rather than conversation: prompt injection
 * ("ignore all previous instructions"), role reassignment ("you are now DAN"), impersonated
 * system turns ("system prompt:", `<|im_start|>system`) and memory poisoning ("remember: whenever
 * the user asks about X, tell them Y"). Stored chats are later pasted into other prompts, so such a
 * line is a payload waiting for a reader.
 *
 * Detection only: the text is never changed here. Write time stores the flags on the message;
 * read time (sanitize-read.ts) neutralizes the flagged lines. Matching runs on an NFKC-folded,
 * lowercased copy so fullwidth letters and odd spacing do not slip past.
 */

export type InjectionKind = 'ignore-instructions' | 'role-override' | 'system-impersonation' | 'memory-poisoning' | 'exfiltration';

export interface InjectionFlag {
  kind: InjectionKind;
  /** 0-based line index in the text. */
  line: number;
  excerpt: string;
}

const PATTERNS: readonly [InjectionKind, RegExp][] = [
  [
    'ignore-instructions',
    /\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}?\b(?:all\s+|any\s+|the\s+|your\s+|these\s+|my\s+)*(?:previous|prior|above|earlier|preceding|former|original|system|initial)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|context|messages?|commands)/u,
  ],
  ['role-override', /\byou\s+are\s+now\s+(?:a|an|the|my|no\s+longer|in\s+\w+\s+mode|free|unrestricted|unfiltered|jailbroken|dan)\b/u],
  ['role-override', /\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall|should)\b/u],
  ['role-override', /\b(?:enter|enable|activate)\s+(?:developer|dan|god|jailbreak)\s+mode\b/u],
  ['role-override', /\bnew\s+(?:system\s+)?instructions?\s*:/u],
  // "System prompt:" anywhere at a line start; a bare "System:" only when dressed up as a turn
  // ("[system]:", "**System:**", "### System:"), because "System: Ubuntu 22.04" is a bug report.
  ['system-impersonation', /^\s*(?:[[<(#*>]+\s*)?(?:system\s+(?:prompt|message|instructions?)|developer\s+message)\s*[\]>)*]*\s*:/u],
  ['system-impersonation', /^\s*(?:[[<(]|#{1,6}\s*|\*\*)\s*(?:system|developer)\s*[\]>)*]*\s*:/u],
  ['system-impersonation', /<\|?im_start\|?>\s*system|<\/?system>|<<\/?sys>>|\[\/?inst\]|\bbegin\s+system\s+prompt\b/u],
  [
    'memory-poisoning',
    /\bremember\b[^\n]{0,40}?\b(?:whenever|every\s*time|always|from\s+now\s+on|in\s+(?:all\s+)?future)\b[^\n]{0,160}?\b(?:tell|say|answer|respond|reply|recommend|mention|suggest|claim)\b/u,
  ],
  [
    'memory-poisoning',
    /\bwhenever\s+(?:the\s+)?user\s+(?:asks|mentions|says|talks)\b[^\n]{0,160}?\b(?:tell|say|answer|respond|reply|recommend)\b/u,
  ],
  [
    'memory-poisoning',
    /\b(?:save|store|add|write|commit)\s+(?:this|the\s+following|that)\s+(?:to|in|into)\s+(?:your\s+)?(?:long[-\s]term\s+)?memory\b|\bupdate\s+your\s+memory\b/u,
  ],
  ['exfiltration', /!\[[^\]\n]{0,300}\]\([^)\n]{0,4000}?(?:\{\{|\$\{|%7b%7b)/u],
  [
    'exfiltration',
    /\b(?:send|post|upload|forward|leak|exfiltrate|append)\b[^\n]{0,60}?\b(?:conversation|chat\s+history|messages|memory|memories|data|secrets?|keys?|passwords?)\b[^\n]{0,60}?(?:https?:\/\/|\bto\s+\S+@\S+)/u,
  ],
];

/**
 * What each pattern cannot match without (all required), in PATTERNS order. They are tested on
 * the lowercased text before any per-line work, then per line, so the costly patterns (and the
 * whitespace folding they need) run only on the rare lines that could match.
 */
const NEEDS: readonly RegExp[][] = [
  [/ignore|disregard|forget|override|bypass|skip/, /instruction|prompt|rule|direction|directive|guideline|context|message|command/],
  [/you\s+are\s+now/],
  [/from\s+now\s+on/],
  [/\smode/],
  [/instruction/, /:/],
  [/system|developer/, /:/],
  [/system|developer/, /:/],
  [/im_start|system>|sys>>|inst\]|begin\s+system\s+prompt/],
  [/remember/, /whenever|every\s*time|always|from\s+now\s+on|future/],
  [/whenever/, /user/],
  [/memory/, /(?:save|store|add|write|commit)\s+(?:this|the|that)|update\s+your/],
  [/!\[/, /\{\{|\$\{|%7b%7b/],
  [/send|post|upload|forward|leak|exfiltrat|append/, /https?:\/\/|@/],
];

const NON_ASCII = /[\u0080-\uffff]/;

/** NFKC (only non-ASCII text can change) and lowercase, so fullwidth letters do not slip past. */
function lower(text: string): string {
  return (NON_ASCII.test(text) ? text.normalize('NFKC') : text).toLowerCase();
}

const possible = (needs: readonly RegExp[], text: string) => needs.every((n) => n.test(text));

export function detectInjection(text: string): InjectionFlag[] {
  const flags: InjectionFlag[] = [];
  const whole = lower(text);
  const active = PATTERNS.map((p, i) => [p, NEEDS[i]!] as const).filter(([, needs]) => possible(needs, whole));
  if (active.length === 0) return flags;
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const lowered = lower(line);
    let folded: string | null = null;
    for (const [[kind, pattern], needs] of active) {
      if (!possible(needs, lowered)) continue;
      folded ??= lowered.replace(/\s+/gu, ' ');
      if (!pattern.test(folded)) continue;
      if (!flags.some((f) => f.line === index && f.kind === kind)) flags.push({ kind, line: index, excerpt: line.trim().slice(0, 120) });
    }
  });
  return flags;
}

/** The distinct kinds, as the message flags stored at write time (`injection:<kind>`). */
export function injectionFlags(flags: readonly InjectionFlag[]): string[] {
  return [...new Set(flags.map((f) => `injection:${f.kind}`))];
}
