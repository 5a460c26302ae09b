/**
 * The injection patterns, run on a folded line (NFKC, lower case, one space between words; see
 * injection.ts). Each family is written as the parts an instruction needs rather than as fixed
 * phrases, so paraphrases match: an override is a verb that dismisses ("ignore", "set aside",
 * "no longer applies", "revoked") near a reference to earlier instructions ("what you were told
 * earlier", "the guidance you received", "your original programming").
 */

export type InjectionKind =
  | 'ignore-instructions'
  | 'role-override'
  | 'system-impersonation'
  | 'memory-poisoning'
  | 'exfiltration'
  | 'prompt-leak'
  | 'hidden-instruction';

/** Earlier instructions, as a message refers to them. */
const NOUN =
  '(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|context|messages?|commands|orders|programming|constraints|configuration|restrictions|polic(?:y|ies)|training)';
const REF = [
  `(?:previous|prior|above|earlier|preceding|former|original|initial|old|system|developer'?s?|operator'?s?|first|all|any|your|these|those)\\s+(?:\\w+\\s+){0,2}?${NOUN}`,
  `${NOUN}\\s+(?:(?:that\\s+)?you\\s+(?:were|have\\s+been|'ve\\s+been|received|got)\\b|that\\s+came\\s+before|(?:above|before)\\b|given\\s+(?:to\\s+you|above|before)|in\\s+your\\s+context)`,
  `(?:what(?:ever)?|everything|anything)\\s+(?:(?:that\\s+)?you\\s+(?:were|have\\s+been|'ve\\s+been|are\\s+being)\\s+(?:told|instructed|given|asked|programmed)|(?:was|is)\\s+(?:said|written|stated)\\s+(?:above|before|earlier))`,
  `(?:everything|anything|all)\\s+(?:above|before)\\s+(?:this|here)`,
  `\\bthe\\s+above\\b`,
  `(?:everything|anything|whatever|what)\\s+(?:the\\s+)?(?:developer|operator|system|admin|creator)s?\\s+(?:told|said|instructed|gave|asked)`,
].join('|');

/** Dismissing what the reference points at. */
const DISMISS = [
  'ignore',
  'ignoring',
  'disregard',
  'forget',
  'override',
  'bypass',
  'skip',
  'drop',
  'discard',
  'delete',
  'reset',
  'revoke',
  'set\\s+aside',
  'put\\s+aside',
  'throw\\s+out',
  'erase',
  'wipe',
  'purge',
  'abandon',
  "(?:don'?t|do\\s+not)\\s+(?:have|need)\\s+to\\s+(?:follow|obey|respect|listen)",
  '(?:no\\s+longer|not)\\s+(?:relevant|important|needed|required|binding)',
  'pay\\s+no\\s+attention',
  "(?:don'?t|do\\s+not|never)\\s+(?:listen|follow|obey|respect|apply)",
  'stop\\s+(?:following|obeying|listening)',
  'no\\s+(?:need\\s+to\\s+(?:respect|follow|obey)|longer\\s+(?:apply|applies|valid|matters?|bound|in\\s+effect))',
  '(?:are|is|were|was)\\s+(?:now\\s+)?(?:void|null|cancell?ed|revoked|outdated|obsolete|invalid|a\\s+mistake|a\\s+test)',
  'revoked',
  'cancell?ed',
  'do\\s+the\\s+opposite',
  'act\\s+as\\s+if',
  'pretend',
  'treat\\b[^\\n]{0,40}\\bas\\s+(?:a\\s+test|void|fake)',
].join('|');

export const INJECTION_PATTERNS: readonly (readonly [InjectionKind, RegExp])[] = [
  ['ignore-instructions', new RegExp(`\\b(?:${DISMISS})\\b[^\\n]{0,60}?(?:${REF})`, 'u')],
  ['ignore-instructions', new RegExp(`(?:${REF})[^\\n]{0,60}?\\b(?:${DISMISS})\\b`, 'u')],
  [
    'ignore-instructions',
    /\bnothing\s+(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+(?:told|instructed|given)\b[^\n]{0,30}?\b(?:matters|counts|applies)\b|\bnothing\s+(?:said\s+)?(?:before|above)\s+(?:this|it|here)\s+(?:counts|matters|applies)|\b(?:conversation|chat)\s+(?:really\s+)?(?:starts|started|begins)\s+(?:here|now)\b/u,
  ],
  [
    'ignore-instructions',
    /\byour\s+(?:real|true|actual|new)\s+(?:instructions|task|orders|prompt|purpose|rules)\s+(?:is|are)\b|\byour\s+(?:instructions|rules|orders|prompt)\s+(?:have|has)\s+(?:changed|been\s+(?:updated|replaced|changed))/u,
  ],
  ['ignore-instructions', /\b(?:obey|listen\s+to|follow|answer\s+to)\s+only\s+(?:me|my\s+\w+|this\s+(?:note|message|document))\b/u],
  // Other languages: a dismissing verb near "instructions / rules".
  [
    'ignore-instructions',
    /\b(?:ignorier(?:e|en)?|vergiss|missachte)\b[^\n]{0,40}?\b(?:anweisungen|instruktionen|regeln|befehle|vorgaben)\b|\bvergiss\s+alles,?\s+was\s+(?:man\s+)?dir\s+(?:vorher\s+|zuvor\s+|bisher\s+)?gesagt/u,
  ],
  [
    'ignore-instructions',
    /\b(?:ignora(?:te|re)?|ignori|ignoren|olvid(?:a|e|en)|olvídate\s+de|descarta|ignore[rz]?|oublie[rz]?|dimentic(?:a|ate|hi)|negeer|vergeet|esqueça|esqueca|desconsidere|zignoruj|ignoruj|zapomnij)\b[^\n]{0,40}?\b(?:instrucciones|instruccions|reglas|indicaciones|instructions|consignes|règles|directives|istruzioni|regole|indicazioni|instructies|regels|aanwijzingen|instruções|instrucoes|regras|orientações|instrukcje|polecenia|zasady)\b/u,
  ],
  ['ignore-instructions', /(?:игнорируй|проигнорируй|забудь|не\s+обращай\s+внимания\s+на)[^\n]{0,40}?(?:инструкци|указани|правил|промпт)/u],
  [
    'ignore-instructions',
    /(?:忽略|无视|無視|忘记|忘掉)[^\n]{0,20}?(?:指令|指示|说明|規則|规则|提示)|(?:指示|命令|ルール|プロンプト)[^\n]{0,20}?(?:無視|忘れ)/u,
  ],
  [
    'ignore-instructions',
    /(?:지시|명령|규칙|지침)[^\n]{0,20}?(?:무시|잊어)|تجاهل[^\n]{0,30}?(?:التعليمات|الأوامر|القواعد)|(?:talimat\w*|kural\w*|yönerge\w*)[^\n]{0,30}?(?:yok\s+say|görmezden\s+gel|unut)/u,
  ],

  [
    'role-override',
    /\byou(?:\s+are|'re)\s+now\s+(?:a|an|the|my|no\s+longer|in\s+\w+\s+mode|free|unrestricted|unfiltered|uncensored|jailbroken|dan)\b|\byou(?:\s+are|'re)\s+(?:no\s+longer\s+(?:bound|restricted|limited|an?\s+(?:ai|assistant))|in\s+(?:developer|dan|god|jailbreak|admin|unrestricted)\s+mode)\b/u,
  ],
  [
    'role-override',
    /\bfrom\s+(?:now\s+on|here\s+on|this\s+point\s+on),?\s+you\s+(?:are|will|must|shall|should|obey|answer|reply|respond)\b/u,
  ],
  [
    'role-override',
    /\b(?:enter|enable|activate|switch\s+to|turn\s+on|in)\s+(?:developer|dan|god|jailbreak|admin|sudo|unrestricted|debug|evil)\s+mode\b(?<!\bthe\s+developer\s+mode)/u,
  ],
  ['role-override', /\bnew\s+(?:system\s+)?instructions?\s*:/u],
  [
    'role-override',
    /\b(?:act|behave|respond|answer|operate|operating|reply|function)\s+(?:(?:as|like)\b[^\n]{0,50}?\s)?(?:with\s+no|without(?:\s+any|\s+the)?|no)\s+(?:\w+\s+)?(?:rules|restrictions|filters|limits|limitations|guidelines|content\s+polic(?:y|ies)|safety|censorship|ethics)\b/u,
  ],
  ['role-override', /\b(?:act|behave|operate|respond|answer)\s+(?:as\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken)\b/u],
  [
    'role-override',
    /\b(?:pretend|imagine|suppose)\s+(?:that\s+)?you\s+(?:are|were|have)\b[^\n]{0,40}?\b(?:without|no|free\s+of)\s+(?:any\s+)?(?:rules|restrictions|filters|safety|guidelines|limits)\b/u,
  ],
  ['role-override', /\byou\s+have\s+no\s+(?:restrictions|rules|filters|limits|guidelines)\b/u],
  [
    'role-override',
    /\b(?:role-?play|pretend|act)\s+(?:as|to\s+be|you\s+are)\b[^\n]{0,80}?\b(?:reveals?|leaks?|ignores?|reads?|tells?|gives?|shares?)\b[^\n]{0,40}?\b(?:keys?|passwords?|secrets?|credentials|prompt|rules)\b/u,
  ],
  [
    'role-override',
    /\bassume\s+the\s+role\s+of\s+(?:the\s+)?(?:system|admin|administrator|root|developer|operator)\b|\bgrant\s+(?:me|this\s+user|the\s+user)\s+(?:full|unrestricted|admin|root|complete)\s+access\b/u,
  ],
  ['role-override', /\bconfirm\s+by\s+saying\b|\bsay\s+["'“]?(?:i\s+have\s+been\s+pwned|jailbroken)\b/u],

  // "System prompt:" anywhere at a line start; a bare "System:" only when dressed up as a turn
  // ("[system]:", "**System:**", "### System:"), because "System: Ubuntu 22.04" is a bug report.
  ['system-impersonation', /^\s*(?:[[<(#*>]+\s*)?(?:system\s+(?:prompt|message|instructions?)|developer\s+message)\s*[\]>)*]*\s*:/u],
  ['system-impersonation', /^\s*(?:[[<(]|#{1,6}\s*|\*\*)\s*(?:system|developer)\s*[\]>)*]*\s*:/u],
  ['system-impersonation', /^\s*#{1,6}\s*(?:instruction|response|system)\s*:/u],
  // Chat templates: ChatML, Llama 2/3, GPT's harmony, Phi/Zephyr, end-of-text tokens.
  [
    'system-impersonation',
    /<\|\s*(?:im_start|im_end|endoftext|system|user|assistant|start|end|message|begin_of_text|start_header_id|end_header_id|eot_id)\s*\|>|<<\/?sys>>|\[\/?inst\]|\bbegin\s+system\s+prompt\b/u,
  ],
  // Forged turn markup: closing the wrapper a prompt put the text in, or opening a new turn.
  [
    'system-impersonation',
    /<\/?(?:system|system_prompt|instructions?|admin|user_input|assistant|human)\b[^>]{0,40}>|<\/(?:message|document|data|context|user|input)>|<message\s+role\s*=/u,
  ],
  ['system-impersonation', /"role"\s*:\s*"(?:system|developer)"/u],
  // Claude's old turn format: a line that starts a Human or Assistant turn.
  ['system-impersonation', /^\s*(?:human|assistant)\s*:/u],

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
    /\b(?:save|store|add|write|commit)\s+(?:this|the\s+following|that)\s+(?:to|in|into)\s+(?:your\s+)?(?:long[-\s]term\s+)?memory\b|\bupdate\s+your\s+memory\b|\b(?:add|save|store)\s+(?:this|that|the\s+following)\s+to\s+what\s+you\s+(?:remember|know)\b/u,
  ],
  [
    'memory-poisoning',
    /\bin\s+(?:all\s+|every\s+|any\s+)?(?:future|subsequent|later)\s+(?:answers?|responses?|replies|reply|conversations?|chats?|sessions?)\b[^\n]{0,80}?\b(?:claim|say|tell|recommend|mention|include|answer|respond)\b|\b(?:claim|say|tell|recommend|mention|include)\b[^\n]{0,80}?\bin\s+(?:all\s+)?future\s+(?:answers|responses|replies|conversations|chats)\b/u,
  ],
  ['memory-poisoning', /\balways\s+(?:recommend|mention|promote|suggest)\b[^\n]{0,80}?\bno\s+matter\s+what\b/u],

  ['exfiltration', /!\[[^\]\n]{0,300}\]\([^)\n]{0,4000}?(?:\{\{|\$\{|%7b%7b)/u],
  ['exfiltration', /https?:\/\/[^\s)]{0,2000}?(?:\{\{|\$\{|%7b%7b)/u],
  // A script link (an image's `data:` source is not one).
  ['exfiltration', /(?<!!)\[[^\]\n]{0,300}\]\(\s*(?:javascript|vbscript):/u],
  [
    'exfiltration',
    /\b(?:send|post|upload|forward|leak|exfiltrate|append)\b[^\n]{0,60}?\b(?:conversation|chat|history|messages|memory|memories|notes|data|secrets?|keys?|passwords?)\b[^\n]{0,60}?(?:https?:\/\/|\bto\s+\S+@\S+|\bto\s+(?:the\s+)?(?:email|address|url|endpoint|webhook|server)\b)/u,
  ],
  [
    'exfiltration',
    /\b(?:chat|conversation|history|notes|memories|passwords?|keys?|secrets?)\b[^\n]{0,60}?\b(?:send|post|upload|forward|append|leak)\b[^\n]{0,40}?(?:https?:\/\/|@)/u,
  ],
  [
    'exfiltration',
    /\b(?:include|embed|put|append|encode|add)\b[^\n]{0,40}?\b(?:api\s+keys?|passwords?|secrets?|credentials|notes|memories|conversation|chat)\b[^\n]{0,40}?\b(?:link|url|image)\b/u,
  ],

  [
    'prompt-leak',
    /\b(?:reveal|print|show|output|display|disclose|repeat|leak|dump)\s+(?:me\s+)?(?:your|the)\s+(?:\w+\s+)?(?:system\s+(?:prompt|message)|hidden\s+prompt|initial\s+prompt|instructions|configuration)\b/u,
  ],

  // Text a reader never sees (an HTML comment, a hidden element) that talks to a model.
  [
    'hidden-instruction',
    /(?:<!--|display\s*:\s*none|<\w+[^>]*\bhidden\b)[^\n]*?\b(?:ai|assistant|model|llm|system|instructions?|prompt|tell\s+the\s+user|recommend)\b/u,
  ],
  // A line addressed to the model ("AI assistants: ...", "assistant, when summarizing ...").
  [
    'hidden-instruction',
    /\b(?:ai|assistant|model|llm|chatbot|gpt|chatgpt|claude)s?(?:\s+(?:model|assistants?))?\s*[,:]\s*(?:when|if|please|you\s+must|always|never|ignore|disregard|tell|say|recommend|send|visit|the\s+preceding)\b/u,
  ],
];

const NOUNS =
  'instruction prompt rule direction directive guideline guidance context message command order programming constraint configuration restriction polic training told instructed given above said written developer operator system'.split(
    ' ',
  );
const DISMISSING = [
  ...'ignor disregard forget overrid bypass skip drop discard delete reset revok aside attention listen follow obey respect longer void null cancel outdated obsolete invalid mistake test opposite pretend treat erase wipe purge abandon relevant important needed required binding'.split(
    ' ',
  ),
  'act as if',
  'throw out',
];
const words = (list: string) => list.split(' ');

/**
 * What each pattern cannot match without, in INJECTION_PATTERNS order: every need is a list of
 * stems (plain substrings of the folded text) of which one must occur. All
 * stems are found in one scan of the text (injection.ts), then each line and each window of lines
 * runs only the patterns whose needs its stems meet: most chat lines run none.
 */
export const INJECTION_NEEDS: readonly (readonly (readonly string[])[])[] = [
  [NOUNS, DISMISSING],
  [NOUNS, DISMISSING],
  [words('nothing conversation chat'), words('counts matters applies starts started begins')],
  [['your'], words('instruction task order prompt purpose rule')],
  [['only'], ['obey', 'listen', 'follow', 'answer to']],
  [words('ignorier vergiss missacht')],
  [
    words('ignor olvid descarta oubli dimentic negeer vergeet esque desconsider zignoruj zapomnij'),
    words('instru regla indicac consign règle directiv istruz regol aanwijz regels regras orienta polecen zasad'),
  ],
  [
    ['игнорируй', 'забудь', 'не обращай'],
    ['инструкци', 'указани', 'правил', 'промпт'],
  ],
  [
    ['忽略', '无视', '無視', '忘记', '忘掉', '指示', '命令', 'ルール', 'プロンプト'],
    ['指令', '指示', '说明', '規則', '规则', '提示', '無視', '忘れ'],
  ],
  [
    ['지시', '명령', '규칙', '지침', 'تجاهل', 'talimat', 'kural', 'yönerge'],
    ['무시', '잊어', 'التعليمات', 'الأوامر', 'القواعد', 'yok say', 'görmezden gel', 'unut'],
  ],
  [['you are now', "you're now", 'you are no longer', "you're no longer", 'you are in ', "you're in "]],
  [['from now on', 'from here on', 'from this point on']],
  [[' mode']],
  [['new instruction', 'new system instruction']],
  [
    words('act behav respond answer operat reply function'),
    ['no ', 'without'],
    words('rule restriction filter limit guideline polic safety censorship ethic'),
  ],
  [words('unrestricted unfiltered uncensored jailbroken')],
  [words('pretend imagine suppose'), ['without', 'no ', 'free of']],
  [['you have no']],
  [['roleplay', 'role-play', 'pretend', 'act'], words('key password secret credential prompt rule')],
  [['assume the role', 'grant']],
  [['confirm by saying', 'pwned', 'jailbroken']],
  [['system', 'developer'], [':']],
  [['system', 'developer'], [':']],
  [['#'], [':'], words('instruction response system')],
  [['<|', '<<sys>>', '<</sys>>', '[inst]', '[/inst]', 'begin system prompt']],
  [
    [
      ...words('system instruction admin user_input assistant human').flatMap((w) => [`<${w}`, `</${w}`]),
      ...words('message document data context user input').map((w) => `</${w}`),
      '<message',
    ],
  ],
  [['"role"']],
  [['human', 'assistant'], [':']],
  [['remember'], ['whenever', 'every time', 'everytime', 'always', 'from now on', 'future']],
  [['whenever'], ['user']],
  [['memory', 'remember', 'know'], words('save store add write commit update')],
  [
    ['future', 'subsequent', 'later'].flatMap((w) =>
      ['answer', 'response', 'repl', 'conversation', 'chat', 'session'].map((n) => `${w} ${n}`),
    ),
  ],
  [['no matter what']],
  [['!['], ['{{', '${', '%7b%7b']],
  [['http'], ['{{', '${', '%7b%7b']],
  [['javascript:', 'vbscript:']],
  [words('send post upload forward leak exfiltrat append'), words('http @ email address url endpoint webhook server')],
  [words('send post upload forward append leak'), ['http', '@']],
  [words('include embed put append encode add'), words('link url image')],
  [
    words('reveal print show output display disclos repeat leak dump'),
    ['system prompt', 'system message', 'hidden prompt', 'initial prompt', 'instruction', 'configuration'],
  ],
  [['<!--', 'display', 'hidden']],
  [
    ['ai', 'assistant', 'assistants', 'model', 'models', 'llm', 'llms', 'chatbot', 'gpt', 'claude'].flatMap((w) => [
      `${w},`,
      `${w}:`,
      `${w} ,`,
      `${w} :`,
    ]),
    words('when if please must always never ignore disregard tell say recommend send visit preceding'),
  ],
];
