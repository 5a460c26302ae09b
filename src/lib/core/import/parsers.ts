/** One parser per JSON source format (text formats are handled in transcript.ts). */
import { parseAistudioPrompt } from './aistudio';
import { parseChatgptConversation } from './chatgpt';
import { parseClaudeConversation } from './claude';
import type { ElementParser } from './context';
import { parseDeepseekConversation } from './deepseek';
import { parseGeminiActivity } from './gemini-activity';
import { parseGrokConversation } from './grok';
import { parseOpenwebuiChat } from './openwebui';
import type { ImportFormat } from './parsed';

const PARSERS: ReadonlyMap<ImportFormat, ElementParser> = new Map<ImportFormat, ElementParser>([
  ['chatgpt', parseChatgptConversation],
  ['claude', parseClaudeConversation],
  ['gemini-activity', parseGeminiActivity],
  ['aistudio', parseAistudioPrompt],
  ['grok', parseGrokConversation],
  ['deepseek', parseDeepseekConversation],
  ['openwebui', parseOpenwebuiChat],
]);

export function parserFor(format: ImportFormat): ElementParser | null {
  return PARSERS.get(format) ?? null;
}
