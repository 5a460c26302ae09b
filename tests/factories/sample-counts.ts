/**
 * Counts of every sample export in ../shared/data/exports, counted by hand from the files (the
 * third column says how). Shared by the parser tests and the store-level import tests: an
 * independent count, not the importer's own.
 */
export interface ExpectedCounts {
  format: string;
  conversations: number;
  visible: number;
  otherBranches: number;
  hidden: number;
  skipped: number;
}

/** Counted by hand from the sample files; the comment says how. */
export const HAND_COUNTS: [string, ExpectedCounts, string][] = [
  [
    'chatgpt/polylogue_showcase-03.json',
    { format: 'chatgpt', conversations: 1, visible: 12, otherBranches: 0, hidden: 0, skipped: 0 },
    'one object; 13 nodes, root has no message, 12 text turns in a line',
  ],
  [
    'chatgpt/librechat_chatgpt-modern-export.json',
    { format: 'chatgpt', conversations: 2, visible: 6, otherBranches: 0, hidden: 1, skipped: 1 },
    '"Corrupted entry" has no mapping; staging: custom-instructions node + 4 turns; pasta: 2 turns',
  ],
  [
    'chatgpt/librechat_chatgpt-tree.json',
    { format: 'chatgpt', conversations: 1, visible: 6, otherBranches: 5, hidden: 1, skipped: 0 },
    'path to f63b…: hidden system, hi there, Hello, hi again, Hey!, tell me a joke, joke; off path: so cool, Thanks, story prompt, story, first joke',
  ],
  [
    'claude/polylogue_claude-ai_showcase-03.json',
    { format: 'claude', conversations: 1, visible: 10, otherBranches: 0, hidden: 0, skipped: 0 },
    '10 chat_messages, no parents',
  ],
  [
    'deepseek/andrmkrff_sample_conversation.json',
    { format: 'deepseek', conversations: 1, visible: 3, otherBranches: 2, hidden: 2, skipped: 0 },
    'current 5: path root-3-4-5; branch 1-2; THINK fragments in 2 and 4',
  ],
  [
    'gemini/SYNTHETIC_gemini_myactivity_example.json',
    { format: 'gemini-activity', conversations: 3, visible: 6, otherBranches: 0, hidden: 0, skipped: 1 },
    '4 activities: 3 prompts with responses (2 messages each), "Created Gem" skipped',
  ],
  [
    'gemini/polylogue_aistudio_showcase-01.json',
    { format: 'aistudio', conversations: 1, visible: 4, otherBranches: 0, hidden: 0, skipped: 0 },
    '4 chunks',
  ],
  [
    'gemini/polylogue_aistudio_showcase-02.json',
    { format: 'aistudio', conversations: 1, visible: 6, otherBranches: 0, hidden: 0, skipped: 0 },
    '6 chunks',
  ],
  [
    'grok/polylogue_grok-export.json',
    { format: 'grok', conversations: 1, visible: 2, otherBranches: 0, hidden: 0, skipped: 0 },
    '1 conversation, 2 responses',
  ],
  [
    'openwebui/librechat_openwebui-export.json',
    { format: 'openwebui', conversations: 3, visible: 6, otherBranches: 0, hidden: 1, skipped: 0 },
    '3 chats of 2 messages; the reasoning chat has one reasoning block',
  ],
];
