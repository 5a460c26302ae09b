/**
 * The agent tools: what an agent may ask a vault, over MCP (`engram mcp`, src/cli/commands/mcp.ts)
 * and, in the page, over WebMCP (src/lib/client/webmcp.ts). One definition each: a name, a
 * description, the input's and the output's schema (zod here; JSON Schema for WebMCP and MCP
 * clients). The answers come from services/agent/agent-tools.ts, which calls the same RecallService
 * the Recall screen calls, so an agent gets the same funnel, budgets and read-time sanitizing as Copy.
 *
 * Field names are snake_case (what MCP clients and models expect); they are a public interface:
 * add fields, never rename them.
 */
import { z } from 'zod';
import { CATEGORIES } from '../extract/units';

const vaultField = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Which vault to read, by name (see the server description). Required when the server serves more than one vault.');

export const recallInput = z.object({
  prompt: z.string().min(1).max(20_000).describe('What the agent is about to work on, in plain words.'),
  vault: vaultField,
  budget_tokens: z
    .number()
    .int()
    .min(256)
    .max(1_000_000)
    .optional()
    .describe('Most tokens the package may use (default: 75% of the target model window).'),
  target: z
    .string()
    .min(1)
    .max(60)
    .optional()
    .describe('A model preset the package is sized for, e.g. gpt-4o, claude-3.5-sonnet, local-4k (default gpt-4o).'),
});

export const searchInput = z.object({
  query: z.string().min(1).max(2_000).describe('Words to look for.'),
  vault: vaultField,
  limit: z.number().int().min(1).max(50).optional().describe('Most items to return (default 10).'),
});

export const expandInput = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .describe(
      "An item id from recall or search (a chunk, a message, a note or a session summary) or a conversation id from an item's source.",
    ),
  radius: z.number().int().min(0).max(20).optional().describe('Turns to show before and after the item (default 2).'),
  vault: vaultField,
});

export const rememberInput = z.object({
  text: z.string().min(1).max(2_000).describe('One thing to remember, as one short declarative sentence.'),
  category: z.enum(CATEGORIES).optional().describe('Where it belongs (default Facts).'),
  vault: vaultField,
});

export const listDecisionsInput = z.object({
  topic: z.string().min(1).max(500).optional().describe('Only decisions that mention these words.'),
  vault: vaultField,
  limit: z.number().int().min(1).max(200).optional().describe('Most decisions to return (default 50), newest first.'),
});

const source = z.object({
  kind: z.enum(['conversation', 'note', 'resource']),
  conversation_id: z.string().nullable(),
  conversation_ids: z.array(z.string()).optional().describe("A structural item's source conversations (each one can be expanded)."),
  title: z.string().nullable().describe('The conversation or resource title.'),
  message_ids: z.array(z.string()),
});

const item = z.object({
  id: z.string(),
  kind: z
    .enum(['note', 'chunk', 'structure'])
    .describe('structure: a session summary, thread map or entity community (the GLOBAL view), drawn from the conversations it names.'),
  tier: z.string().describe('engram (a kept note), resource, chat or web: the provenance tier.'),
  text: z.string().describe('Sanitized for reading: injection-like lines quoted, secrets redacted, links inert.'),
  source,
  date: z.string().nullable().describe('ISO 8601.'),
  score: z.number().describe('relevance x provenance x recency.'),
});

export const recallOutput = z.object({
  vault: z.string(),
  prompt: z.string(),
  holds_nothing: z.string().nullable().describe('Set when the vault holds nothing on this: then the package is empty, never padded.'),
  package: z.object({
    text: z.string().describe('The context package to paste into a prompt (what Copy copies).'),
    format: z.enum(['markdown', 'xml']),
    tokens: z.number().int(),
    budget: z.number().int(),
  }),
  items: z.array(item),
  dropped: z.number().int().describe('Candidates the funnel dropped (floor, fit-gate, dedup, token cap).'),
  gate: z.string().describe('What the fit-gate did (it needs a language model; without one it keeps every candidate).'),
});

export const searchOutput = z.object({
  vault: z.string(),
  query: z.string(),
  items: z.array(item.omit({ text: true }).extend({ snippet: z.string().describe('The start of the item, sanitized.') })),
});

const turn = z.object({
  id: z.string(),
  role: z.string(),
  speaker: z.string().nullable(),
  date: z.string().nullable(),
  text: z.string().describe('Sanitized for reading.'),
  focus: z.boolean().describe('True for the turns the item itself covers.'),
});

export const expandOutput = z.object({
  vault: z.string(),
  id: z.string(),
  conversation: z
    .object({ id: z.string(), title: z.string(), source: z.string(), date: z.string().nullable() })
    .nullable()
    .describe('Null for a note that came from no conversation.'),
  note: z.object({ text: z.string(), category: z.string(), status: z.string() }).nullable(),
  turns: z.array(turn),
});

export const rememberOutput = z.object({
  vault: z.string(),
  id: z.string(),
  status: z.literal('provisional'),
  category: z.string(),
  text: z.string().describe('As stored (secrets redacted).'),
  already: z.boolean().describe('True when the same text was already waiting in the Inbox.'),
  where: z.string().describe('Where it waits for the person: the Inbox, after the app next syncs.'),
});

export const listDecisionsOutput = z.object({
  vault: z.string(),
  decisions: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      kept_at: z.string().nullable(),
      created_at: z.string(),
      source,
    }),
  ),
});

export type RecallToolInput = z.infer<typeof recallInput>;
export type SearchToolInput = z.infer<typeof searchInput>;
export type ExpandToolInput = z.infer<typeof expandInput>;
export type RememberToolInput = z.infer<typeof rememberInput>;
export type ListDecisionsToolInput = z.infer<typeof listDecisionsInput>;
export type RecallToolOutput = z.infer<typeof recallOutput>;
export type SearchToolOutput = z.infer<typeof searchOutput>;
export type ExpandToolOutput = z.infer<typeof expandOutput>;
export type RememberToolOutput = z.infer<typeof rememberOutput>;
export type ListDecisionsToolOutput = z.infer<typeof listDecisionsOutput>;
export type AgentItem = z.infer<typeof item>;
export type AgentSource = z.infer<typeof source>;

export const AGENT_TOOLS = {
  recall: {
    title: 'Recall from the vault',
    description:
      'The context package the Recall screen builds for a prompt: the memories that fit it, best first, within a token budget, ' +
      'sanitized for reading, with each item’s id, source, date and score. Says so when the vault holds nothing on it.',
    input: recallInput,
    output: recallOutput,
    readOnly: true,
  },
  search: {
    title: 'Search the vault',
    description: 'Items that match a query (ids, snippets and sources), without the funnel or a package: for browsing before expand.',
    input: searchInput,
    output: searchOutput,
    readOnly: true,
  },
  expand: {
    title: 'Expand an item',
    description:
      'The conversation around an item from recall or search: the turns before and after it, with the title and date, sanitized.',
    input: expandInput,
    output: expandOutput,
    readOnly: true,
  },
  remember: {
    title: 'Remember something',
    description:
      'Proposes one thing to remember. It becomes a provisional candidate in the person’s Inbox (never a kept note): ' +
      'they keep or discard it.',
    input: rememberInput,
    output: rememberOutput,
    readOnly: false,
  },
  list_decisions: {
    title: 'List decisions',
    description: 'Decisions the person kept, newest first, with dates and sources; optionally only those about a topic.',
    input: listDecisionsInput,
    output: listDecisionsOutput,
    readOnly: true,
  },
} as const;

export type AgentToolName = keyof typeof AGENT_TOOLS;
export const AGENT_TOOL_NAMES = Object.keys(AGENT_TOOLS) as AgentToolName[];

/** The JSON Schema of a tool's input (WebMCP takes JSON Schema). */
export function inputJsonSchema(name: AgentToolName): Record<string, unknown> {
  const schema = z.toJSONSchema(AGENT_TOOLS[name].input) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** Parses a tool call's arguments; the reason, in the one error shape, when they do not fit. */
export function parseToolInput<N extends AgentToolName>(
  name: N,
  args: unknown,
): { ok: true; value: z.infer<(typeof AGENT_TOOLS)[N]['input']> } | { ok: false; message: string } {
  const parsed = AGENT_TOOLS[name].input.safeParse(args ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as z.infer<(typeof AGENT_TOOLS)[N]['input']> };
  return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ') };
}
