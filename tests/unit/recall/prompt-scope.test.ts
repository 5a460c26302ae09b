import { describe, expect, it } from 'vitest';
import { promptScope } from '../../../src/lib/core/recall/prompt-scope';

const kind = (prompt: string) => {
  const scope = promptScope(prompt);
  return scope === null ? null : scope.kind === 'notes' ? scope.categories.join(',') : 'sessions';
};

describe('prompts with no subject', () => {
  it('a question about a kind of memory lists that kind', () => {
    for (const p of [
      'What did I decide?',
      'What have we decided so far?',
      'what did we settle on',
      'Show me my decisions',
      'What are my decisions?',
      'Can you list my decisions in my chats?',
    ])
      expect(kind(p), p).toBe('Decisions');
    for (const p of [
      "What's on my to-do list?",
      'What do I still need to do?',
      'my todos',
      'List the action items',
      'What are our next steps?',
    ])
      expect(kind(p), p).toBe('Action Items');
    for (const p of ["What's still open?", 'What are my open questions?', 'What did we leave open?', 'unanswered questions'])
      expect(kind(p), p).toBe('Open Questions');
    expect(kind('What are my constraints?')).toBe('Constraints');
    expect(kind('What ideas did I have?')).toBe('Ideas');
  });

  it('a question about the whole vault lists the conversations', () => {
    for (const p of [
      'What did we talk about?',
      'What have I chatted about lately?',
      "What's in my vault?",
      'What did we discuss?',
      'Please summarise my conversations',
      'What do you know about me?',
      'What have I been working on lately?',
      'What am I working on?',
      'Summarize what I asked about',
      'What have I asked you?',
      'Recap what we discussed',
    ])
      expect(kind(p), p).toBe('sessions');
  });

  it('a prompt with a subject is recalled as always', () => {
    for (const p of [
      'What did I decide about the garden path lighting?',
      'What did we talk about at the Lisbon dinner?',
      'Which database did we pick for the irrigation schedules?',
      'What do I need to do before the trip to Porto?',
      'What are the open questions on the roof repair?',
      'What decisions did Caroline make about the adoption?',
      'When did Melanie decide to run a charity race?',
      'How do I tune the PID loop of my espresso machine?',
      'decisions about the kitchen',
      'What do you know about sourdough starters?',
      'What have I been working on for the garden shed?',
      'What did I ask about the visa appointment?',
    ])
      expect(kind(p), p).toBeNull();
  });
});
