import { AGENT_TOOL_NAMES, AGENT_TOOLS, inputJsonSchema, parseToolInput, type AgentToolName } from '../core/api/agent-tools';
import { toVaultError, vaultError, type Result, type VaultError } from '../core/errors';
import { errors } from './errors.svelte';
import { indexer } from './indexer.svelte';
import { vaultSession } from './vault-session.svelte';
import { vaultWorker } from './vault-worker';

/**
 * WebMCP: the agent tools (core/api/agent-tools.ts) registered with the browser's model context,
 * for agents that run in the browser. Feature-detected: `document.modelContext` (the current
 * draft), else `navigator.modelContext` (the earlier one). Without either, nothing is registered
 * and nothing is installed: the WebMCP polyfill (@mcp-b/webmcp-polyfill) fits the CSP (no eval),
 * but it is an in-page registry with no transport, so no agent outside the page could reach tools
 * registered through it; docs/AGENTS.md says more. The read tools answer from this tab's vault
 * through the index worker, with the Recall screen's read path; `remember` asks the person first.
 */

interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean };
  execute: (args: unknown) => Promise<unknown>;
}

/** The two shapes seen in browsers: `registerTool` (current and early drafts) and `provideContext` (early). */
interface ModelContextLike {
  registerTool?: (tool: ToolDescriptor, options?: { signal?: AbortSignal }) => unknown;
  provideContext?: (context: { tools: ToolDescriptor[] }) => unknown;
  unregisterTool?: (name: string) => unknown;
}

export function findModelContext(win: Window): ModelContextLike | null {
  const fromDocument = (win.document as Document & { modelContext?: ModelContextLike }).modelContext;
  const fromNavigator = (win.navigator as Navigator & { modelContext?: ModelContextLike }).modelContext;
  const found = fromDocument ?? fromNavigator ?? null;
  return found && (typeof found.registerTool === 'function' || typeof found.provideContext === 'function') ? found : null;
}

/** A tool's answer in MCP's CallToolResult shape (what WebMCP hosts pass on to the agent). */
function toolResult(outcome: Result<unknown>) {
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: `${outcome.error.code}: ${outcome.error.message}` }] };
  return { content: [{ type: 'text', text: JSON.stringify(outcome.value, null, 2) }], structuredContent: outcome.value };
}

export interface RememberRequest {
  id: number;
  text: string;
  category: string | null;
  vault: string;
  decide(allow: boolean): void;
}

export type WebMcpStatus = 'idle' | 'absent' | 'registered' | 'failed';

class WebMcpTools {
  status = $state<WebMcpStatus>('idle');
  registered = $state<string[]>([]);
  /** `remember` requests waiting for the person's answer. */
  requests = $state<RememberRequest[]>([]);
  error = $state<VaultError | null>(null);
  private seq = 0;
  private registration: AbortController | null = null;

  /** Registers the tools when the browser has a model context; says so when it has none. */
  async register(win: Window = window): Promise<void> {
    if (this.status !== 'idle') return;
    const context = findModelContext(win);
    if (!context) {
      this.status = 'absent';
      return;
    }
    this.registration = new AbortController();
    const tools = AGENT_TOOL_NAMES.map((name) => this.descriptor(name));
    try {
      if (typeof context.registerTool === 'function') {
        for (const tool of tools) await context.registerTool(tool, { signal: this.registration.signal });
      } else {
        await context.provideContext!({ tools });
      }
      this.registered = tools.map((t) => t.name);
      this.status = 'registered';
    } catch (thrown) {
      this.status = 'failed';
      this.error = toVaultError(thrown);
      errors.report(thrown, 'offering the vault to browser agents (WebMCP)');
    }
  }

  private descriptor(name: AgentToolName): ToolDescriptor {
    const tool = AGENT_TOOLS[name];
    return {
      name,
      title: tool.title,
      description: `${tool.description} (Engram Vault: the vault open in this tab.)`,
      inputSchema: inputJsonSchema(name),
      annotations: { readOnlyHint: tool.readOnly },
      execute: async (args) => toolResult(await this.execute(name, args)),
    };
  }

  private async execute(name: AgentToolName, args: unknown): Promise<Result<unknown>> {
    const vault = vaultSession.current;
    if (!vault) return { ok: false, error: vaultError('agent/unknown-vault', 'No vault is open in this tab yet.') };
    try {
      if (name === 'remember') return await this.remember(args, vault.name);
      return await indexer().agentTool(name, $state.snapshot(args), vault.name);
    } catch (thrown) {
      return { ok: false, error: toVaultError(thrown) };
    }
  }

  /** Asks the person; only their "allow" writes the candidate (to the Inbox of this tab's vault). */
  private async remember(args: unknown, vault: string): Promise<Result<unknown>> {
    const parsed = parseToolInput('remember', args);
    if (!parsed.ok) return { ok: false, error: vaultError('input/invalid', `Invalid arguments for remember: ${parsed.message}`) };
    const input = parsed.value;
    if (input.vault !== undefined && input.vault.toLowerCase() !== vault.toLowerCase()) {
      return { ok: false, error: vaultError('agent/unknown-vault', `This tab has the vault "${vault}" open, not "${input.vault}".`) };
    }
    const allowed = await new Promise<boolean>((resolve) => {
      const id = ++this.seq;
      this.requests = [
        ...this.requests,
        {
          id,
          text: input.text,
          category: input.category ?? null,
          vault,
          decide: (allow) => {
            this.requests = this.requests.filter((r) => r.id !== id);
            resolve(allow);
          },
        },
      ];
    });
    if (!allowed) return { ok: false, error: vaultError('agent/refused', 'The person declined to remember this.') };
    const saved = await vaultWorker().call('remember', [input.text, input.category]);
    return {
      ok: true,
      value: {
        vault,
        id: saved.id,
        status: 'provisional',
        category: saved.category,
        text: saved.text,
        already: saved.already,
        where: `In the Inbox of "${vault}", for the person to keep or discard.`,
      },
    };
  }

  unregister(): void {
    this.registration?.abort();
    this.registration = null;
  }
}

export const webMcp = new WebMcpTools();
