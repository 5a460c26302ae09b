/** Small chat exports and documents for index tests. */
import { chatgptConversation, text } from './import-fixtures';
import type { Vault } from '../../src/lib/store/vault';
import { allMessages } from '../../src/lib/store/messages-store';

export const MAPLE =
  'User: How should I prune a Japanese maple?\nAssistant: Prune in late winter, and only lightly: remove crossing branches and keep the layered shape.\nUser: Thanks!';
export const MOSS = [
  'User: What soil does moss need in a Japanese garden?',
  'Assistant: Moss prefers shade, constant moisture and slightly acidic, compacted soil.',
  'User: And how often should I water it?',
  'Assistant: Mist it daily in dry weather, never flood it.',
].join('\n');
export const BUDGET = [
  'User: Help me plan a travel budget for a week in Kyoto.',
  'Assistant: Plan about 150 dollars a day: lodging 80, food 40, temples and trains 30.',
  'User: Is a rail pass worth it?',
  'Assistant: Only if you travel between cities; within Kyoto buses and a day pass are cheaper.',
].join('\n');

/** A pasted document that is not a chat: it becomes a resource note, chunked on its headings. */
export const DOCUMENT = [
  '# Garden maintenance handbook',
  '',
  'A handbook for the stone garden behind the tea house.',
  '',
  '## Raking the gravel',
  '',
  'Rake the gravel every morning in long straight lines; circles go around each stone.',
  '',
  '## Cleaning the pond',
  '',
  'Clean the koi pond filter every second week and test the water monthly.',
].join('\n');

/** Visible messages: visible conversation, visible state, on the visible path, not hidden, not blank. */
export async function visibleMessageIds(vault: Vault): Promise<Set<string>> {
  const conversations = await vault.db.conversations.where('state').equals('visible').primaryKeys();
  const visible = new Set(conversations.map(String));
  const messages = await allMessages(vault.db);
  return new Set(
    messages
      .filter((m) => visible.has(m.conversationId) && m.state === 'visible' && m.branch.onVisiblePath && !m.hidden && /\S/u.test(m.text))
      .map((m) => m.id),
  );
}

/**
 * A ChatGPT export whose one conversation holds what the index must leave out: a hidden system
 * message and a regenerated answer on a branch off the visible thread.
 */
export const BRANCHED_CHAT = JSON.stringify([
  chatgptConversation(
    [
      { id: 'root', parent: null, empty: true },
      {
        id: 'sys',
        parent: 'root',
        role: 'system',
        content: text('You are a gardening helper.'),
        metadata: { is_visually_hidden_from_conversation: true },
      },
      { id: 'q', parent: 'sys', role: 'user', content: text('When should I repot a bonsai juniper?'), time: 1_700_000_000 },
      { id: 'a-old', parent: 'q', role: 'assistant', content: text('Repot it in autumn after the leaves drop.'), time: 1_700_000_010 },
      {
        id: 'a-new',
        parent: 'q',
        role: 'assistant',
        content: text('Repot a juniper in early spring, just before new growth.'),
        time: 1_700_000_020,
      },
    ],
    'a-new',
    { id: 'bonsai-1', title: 'Repotting a bonsai juniper' },
  ),
]);
