/**
 * The chat sites whose pages may hand a capture to the app. The capture page compares
 * `event.origin` literally against this list: no prefix, suffix or pattern match, so
 * `https://chatgpt.com.evil.example`, `http://chatgpt.com` and the opaque origin `"null"` are all
 * refused. The list is a constant of the build; nothing at run time (query, storage, env) adds to it.
 */
export type ChatSource = 'chatgpt' | 'claude' | 'gemini';

export const CHAT_SITES: readonly { readonly origin: string; readonly source: ChatSource }[] = [
  { origin: 'https://chatgpt.com', source: 'chatgpt' },
  { origin: 'https://chat.openai.com', source: 'chatgpt' },
  { origin: 'https://claude.ai', source: 'claude' },
  { origin: 'https://gemini.google.com', source: 'gemini' },
];

/** The chat site an origin belongs to, or null when the origin is not on the allow-list. */
export function chatSourceForOrigin(origin: unknown): ChatSource | null {
  if (typeof origin !== 'string') return null;
  for (const site of CHAT_SITES) if (site.origin === origin) return site.source;
  return null;
}

export function isAllowedChatOrigin(origin: unknown): boolean {
  return chatSourceForOrigin(origin) !== null;
}
