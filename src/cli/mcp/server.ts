/**
 * The Model Context Protocol server of `engram mcp`, on the official SDK (`McpServer`, stdio
 * transport: newline-delimited JSON-RPC on stdin and stdout). One tool per agent tool
 * (core/api/agent-tools.ts) with its input and output schema; every call goes through AgentTools,
 * whose recall is the Recall screen's RecallService. Requests run one at a time, so a vault file
 * that changed on disk is loaded again between two requests, never in the middle of one.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AGENT_TOOL_NAMES, AGENT_TOOLS, type AgentToolName } from '../../lib/core/api/agent-tools';
import type { AgentTools } from '../../lib/services/agent/agent-tools';

export interface AgentServerOptions {
  version: string;
  /** The names of the vaults served (the `vault` argument takes one of them). */
  vaults: readonly string[];
}

/** The tool's input schema, with `vault` narrowed to the vaults this server serves. */
function inputSchemaFor(name: AgentToolName, vaults: readonly string[]) {
  const input = AGENT_TOOLS[name].input;
  const [first, ...rest] = vaults;
  if (first === undefined) return input;
  const described = input.shape.vault.description ?? '';
  return input.extend({
    vault: z
      .enum([first, ...rest])
      .optional()
      .describe(described),
  });
}

export function createAgentServer(tools: AgentTools, options: AgentServerOptions): McpServer {
  const server = new McpServer(
    { name: 'engram-vault', version: options.version },
    {
      instructions:
        `Engram Vault: the person's AI-chat memory, read-only except "remember", which proposes a candidate for their Inbox. ` +
        `Vaults served: ${options.vaults.map((v) => `"${v}"`).join(', ')}` +
        (options.vaults.length > 1 ? '; name one in every call.' : '.') +
        ' Call recall before starting work on something the person may have discussed before; expand an item to read around it.',
    },
  );
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  for (const name of AGENT_TOOL_NAMES) {
    const tool = AGENT_TOOLS[name];
    server.registerTool(
      name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: inputSchemaFor(name, options.vaults),
        outputSchema: tool.output,
        annotations: {
          readOnlyHint: tool.readOnly,
          destructiveHint: false,
          idempotentHint: tool.readOnly || name === 'remember',
          openWorldHint: false,
        },
      },
      async (args: unknown): Promise<CallToolResult> => {
        const outcome = await serially(() => tools.call(name, args));
        if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: `${outcome.error.code}: ${outcome.error.message}` }] };
        return {
          content: [{ type: 'text', text: JSON.stringify(outcome.value, null, 2) }],
          structuredContent: outcome.value as Record<string, unknown>,
        };
      },
    );
  }
  return server;
}
