import { describe, expect, it } from 'vitest';
import { CHAT_SITES, chatSourceForOrigin, isAllowedChatOrigin } from '../../../src/lib/core/capture/origins';

describe('chat origin allow-list (literal comparison of event.origin)', () => {
  it('accepts exactly the chat sites over https', () => {
    expect(chatSourceForOrigin('https://chatgpt.com')).toBe('chatgpt');
    expect(chatSourceForOrigin('https://chat.openai.com')).toBe('chatgpt');
    expect(chatSourceForOrigin('https://claude.ai')).toBe('claude');
    expect(chatSourceForOrigin('https://gemini.google.com')).toBe('gemini');
    expect(CHAT_SITES).toHaveLength(4);
  });

  it.each([
    ['the opaque origin', 'null'],
    ['an empty origin', ''],
    ['http instead of https', 'http://chatgpt.com'],
    ['http claude', 'http://claude.ai'],
    ['a look-alike suffix', 'https://chatgpt.com.evil.example'],
    ['a look-alike prefix', 'https://evilchatgpt.com'],
    ['a subdomain', 'https://evil.claude.ai'],
    ['a parent domain', 'https://google.com'],
    ['another Google subdomain', 'https://bard.google.com'],
    ['an explicit port', 'https://chatgpt.com:443'],
    ['another port', 'https://claude.ai:8443'],
    ['a trailing slash', 'https://claude.ai/'],
    ['a path', 'https://chatgpt.com/c/123'],
    ['upper case', 'https://ChatGPT.com'],
    ['surrounding space', ' https://claude.ai'],
    ['a file URL', 'file://'],
    ['a data URL', 'data:text/html,hi'],
    ['the app itself', 'http://127.0.0.1:4173'],
  ])('refuses %s (%s)', (_name, origin) => {
    expect(isAllowedChatOrigin(origin)).toBe(false);
  });

  it('refuses anything that is not a string', () => {
    for (const value of [null, undefined, 0, {}, ['https://claude.ai'], new URL('https://claude.ai')]) {
      expect(isAllowedChatOrigin(value)).toBe(false);
    }
  });
});
