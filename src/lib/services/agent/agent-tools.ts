/**
 * The agent tools' answers (core/api/agent-tools.ts defines them), over the vaults a host serves:
 * `engram mcp` (vault files, services/agent/file-vaults.ts) and the page's WebMCP tools (the vault
 * open in the tab, through the index worker). `recall` and `search` run RecallService.answer, the
 * one read path, so an agent gets the Recall screen's funnel, budget and read-time sanitizing; the
 * other tools read the vault's tables and sanitize what they return the same way. A call names a
 * vault among those the host serves, or none when it serves one: nothing else is ever read.
 */
import {
  AGENT_TOOLS,
  parseToolInput,
  type AgentItem,
  type AgentSource,
  type AgentToolName,
  type ExpandToolInput,
  type ExpandToolOutput,
  type ListDecisionsToolInput,
  type ListDecisionsToolOutput,
  type RecallToolInput,
  type RecallToolOutput,
  type RememberToolInput,
  type RememberToolOutput,
  type SearchToolInput,
  type SearchToolOutput,
} from '../../core/api/agent-tools';
import { rememberedNote } from '../../core/agent/remembered-note';
import { err, ok, toVaultError, vaultError, type Result } from '../../core/errors';
import type { FlaggedLinePolicy } from '../../core/recall/budget';
import type { PackageEntry } from '../../core/recall/package-format';
import type { CandidateRecord } from '../../core/recall/ports';
import type { ScoredCandidate } from '../../core/recall/types';
import type { NoteRecord } from '../../core/records';
import { analyze } from '../../core/text/analyze';
import type { Vault } from '../../store/vault';
import { readSanitizer } from '../recall/read-sanitizer';
import type { RecallService } from '../recall/recall-service';
import { getMessage } from '../../store/messages-store';

/** One vault as the tools read it. */
export interface AgentVault {
  name: string;
  vault: Vault;
  recaller: RecallService;
}

/** The vaults a host serves, and how a remembered candidate reaches one of them. */
export interface AgentVaults {
  names(): readonly string[];
  /** The vault called `name` (or the only one), current as of this call. */
  get(name: string): Promise<AgentVault>;
  /** Puts a provisional candidate where the person will see it in the Inbox; `already` when it was there. */
  remember(name: string, note: NoteRecord): Promise<{ already: boolean; where: string }>;
}

export interface AgentToolsOptions {
  now?: () => number;
  /** Record which notes were read (the screen does; a host reading a copy of the vault does not). */
  writeBack?: boolean;
  /**
   * A line flagged as possible prompt injection: dropped with a marker (the default, issue 14's) or
   * quoted as data, read at each call. The page's tools follow the device's Recall setting
   * (`device.recall.flaggedLines`), as the Recall screen does; `engram mcp` reads a vault file,
   * which never carries a device's settings, so it drops unless started with --flagged-lines quote.
   * Never a tool argument: an agent cannot ask for the lines the person's setting keeps out.
   */
  flaggedLines?: () => FlaggedLinePolicy | Promise<FlaggedLinePolicy>;
}

const SNIPPET_CHARS = 240;
const iso = (at: number | null | undefined): string | null => (at === null || at === undefined ? null : new Date(at).toISOString());
/** Read-time sanitizing as the Recall screen's: a flagged line dropped or quoted by `policy`, its marker names `source` (an item id). */
const sanitizer =
  (policy: FlaggedLinePolicy) =>
  (text: string, source: string): string =>
    readSanitizer(text, { source, flaggedLines: policy }).text;
type Sanitize = ReturnType<typeof sanitizer>;

function sourceOf(record: CandidateRecord): AgentSource {
  // A structural unit (summary, thread map, community) is drawn from conversations, one or several.
  const kind =
    record.kind === 'note'
      ? record.tier === 'resource'
        ? 'resource'
        : 'note'
      : record.conversationId || record.kind === 'structure'
        ? 'conversation'
        : 'resource';
  return {
    kind,
    conversation_id: record.conversationId,
    ...(record.structure ? { conversation_ids: record.structure.sources.map((s) => s.conversationId) } : {}),
    title: record.sourceTitle,
    message_ids: [...record.messageIds],
  };
}

function itemOf(candidate: ScoredCandidate, sanitize: Sanitize, sanitized?: PackageEntry): AgentItem {
  const { record } = candidate;
  return {
    id: record.id,
    kind: record.kind,
    tier: record.tier,
    text: sanitized && reusable(sanitized) ? sanitized.text : sanitize(record.text, record.id),
    source: sourceOf(record),
    date: iso(record.date),
    score: Number(candidate.scores.score.toFixed(6)),
  };
}

/**
 * Whether a package entry's text is what `sanitize(record.text, record.id)` would return: only a
 * flagged line's marker names its source (the package names the title, an item its id), and a cut
 * entry holds less than the record.
 */
const reusable = (entry: PackageEntry): boolean => entry.cut === 'none' && !entry.flags.some((f) => f.startsWith('injection'));

/** The window a budget of `tokens` needs: packages use 80 % of a window at most (model-windows.ts). */
const windowFor = (tokens: number): number => Math.ceil(tokens / 0.8);

export class AgentTools {
  readonly #now: () => number;

  constructor(
    private readonly vaults: AgentVaults,
    private readonly options: AgentToolsOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
  }

  async #policy(): Promise<FlaggedLinePolicy> {
    return ((await this.options.flaggedLines?.()) ?? 'drop') === 'quote' ? 'quote' : 'drop';
  }

  /** Validates the arguments, runs the tool, and returns its output or the reason it could not. */
  async call(name: string, args: unknown): Promise<Result<unknown>> {
    if (!(name in AGENT_TOOLS)) return err(vaultError('input/invalid', `There is no tool called "${name}".`));
    const tool = name as AgentToolName;
    const parsed = parseToolInput(tool, args);
    if (!parsed.ok) return err(vaultError('input/invalid', `Invalid arguments for ${tool}: ${parsed.message}`));
    try {
      switch (tool) {
        case 'recall':
          return await this.recall(parsed.value as RecallToolInput);
        case 'search':
          return await this.search(parsed.value as SearchToolInput);
        case 'expand':
          return await this.expand(parsed.value as ExpandToolInput);
        case 'remember':
          return await this.remember(parsed.value as RememberToolInput);
        case 'list_decisions':
          return await this.listDecisions(parsed.value as ListDecisionsToolInput);
      }
    } catch (thrown) {
      return err(toVaultError(thrown, 'internal/unexpected'));
    }
  }

  /** The vault a call names; with one vault served, naming none means that one. */
  #vaultName(requested: string | undefined): Result<string> {
    const names = this.vaults.names();
    if (requested === undefined) {
      if (names.length === 1) return ok(names[0]!);
      return err(vaultError('agent/unknown-vault', `Name the vault to read: one of ${names.map((n) => `"${n}"`).join(', ')}.`));
    }
    const found = names.find((n) => n === requested) ?? names.find((n) => n.toLowerCase() === requested.toLowerCase());
    if (!found)
      return err(
        vaultError(
          'agent/unknown-vault',
          `No vault called "${requested}" is served here: one of ${names.map((n) => `"${n}"`).join(', ')}.`,
        ),
      );
    return ok(found);
  }

  async recall(input: RecallToolInput): Promise<Result<RecallToolOutput>> {
    const name = this.#vaultName(input.vault);
    if (!name.ok) return name;
    const { recaller } = await this.vaults.get(name.value);
    const flaggedLines = await this.#policy();
    const target = input.budget_tokens !== undefined ? windowFor(input.budget_tokens) : (input.target ?? undefined);
    const answer = await recaller.answer(
      { prompt: input.prompt },
      {
        writeBack: this.options.writeBack ?? true,
        package: {
          ...(target !== undefined ? { target } : {}),
          ...(input.budget_tokens !== undefined ? { fraction: 0.8 } : {}),
          format: 'markdown',
          flaggedLines,
        },
      },
    );
    if (!answer.ok) return answer;
    const { result, package: pkg } = answer.value;
    const packaged = new Map(pkg.entries.map((e) => [e.ref, e]));
    return ok({
      vault: name.value,
      prompt: input.prompt,
      holds_nothing: result.holdsNothing?.message ?? null,
      package: { text: pkg.text, format: pkg.format, tokens: pkg.tokens, budget: pkg.budget },
      items: result.items
        .filter((c) => packaged.has(c.record.id))
        .map((c) => itemOf(c, sanitizer(flaggedLines), packaged.get(c.record.id))),
      dropped: result.dropped.length,
      gate: result.gate.ran ? `ran (${result.gate.llmId}): kept ${result.gate.kept}, dropped ${result.gate.dropped}` : result.gate.message,
    });
  }

  async search(input: SearchToolInput): Promise<Result<SearchToolOutput>> {
    const name = this.#vaultName(input.vault);
    if (!name.ok) return name;
    const { recaller } = await this.vaults.get(name.value);
    const limit = input.limit ?? 10;
    const sanitize = sanitizer(await this.#policy());
    // The same retrieval and scoring as recall, without the funnel or a package: the plain ranking.
    const answer = await recaller.answer(
      { prompt: input.query },
      { funnel: false, writeBack: false, width: limit, maxWidth: Math.max(limit, 15) },
    );
    if (!answer.ok) return answer;
    return ok({
      vault: name.value,
      query: input.query,
      items: answer.value.result.items.slice(0, limit).map((candidate) => {
        const { text, ...rest } = itemOf(candidate, sanitize);
        return { ...rest, snippet: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text };
      }),
    });
  }

  async expand(input: ExpandToolInput): Promise<Result<ExpandToolOutput>> {
    const name = this.#vaultName(input.vault);
    if (!name.ok) return name;
    const { vault } = await this.vaults.get(name.value);
    const radius = input.radius ?? 2;
    const sanitize = sanitizer(await this.#policy());
    if (/^(?:thread|community):/u.test(input.id)) {
      return err(
        vaultError(
          'agent/not-found',
          `${input.id} is a thread map or an entity community, rebuilt at each recall: expand one of its source conversations (source.conversation_ids) instead.`,
        ),
      );
    }
    const found = await locate(vault, input.id);
    if (!found) return err(vaultError('agent/not-found', `Vault "${name.value}" holds no item ${input.id}.`));
    const note = found.note
      ? { text: sanitize(found.note.text, found.note.id), category: found.note.category, status: found.note.status }
      : null;
    if (!found.conversationId) return ok({ vault: name.value, id: input.id, conversation: null, note, turns: [] });
    const conversation = await vault.conversations.get(found.conversationId);
    if (conversation?.state !== 'visible') return ok({ vault: name.value, id: input.id, conversation: null, note, turns: [] });
    const thread = (await vault.conversations.messages(conversation.id)).filter(
      (m) => m.state === 'visible' && m.branch.onVisiblePath && !m.hidden,
    );
    const focus = new Set(found.messageIds);
    const positions = thread.flatMap((m, i) => (focus.has(m.id) ? [i] : []));
    const from = positions.length ? Math.max(0, Math.min(...positions) - radius) : 0;
    const to = positions.length ? Math.min(thread.length - 1, Math.max(...positions) + radius) : Math.min(thread.length - 1, radius * 2);
    return ok({
      vault: name.value,
      id: input.id,
      conversation: {
        id: conversation.id,
        title: conversation.title,
        source: conversation.source,
        date: iso(conversation.createdAt ?? conversation.updatedAt),
      },
      note,
      turns: thread.slice(from, to + 1).map((m) => ({
        id: m.id,
        role: m.role,
        speaker: m.speaker ?? null,
        date: iso(m.createdAt),
        text: sanitize(m.text, m.id),
        focus: focus.has(m.id),
      })),
    });
  }

  async remember(input: RememberToolInput): Promise<Result<RememberToolOutput>> {
    const name = this.#vaultName(input.vault);
    if (!name.ok) return name;
    const note = await rememberedNote({ text: input.text, ...(input.category ? { category: input.category } : {}), now: this.#now() });
    if (note.text === '') return err(vaultError('input/invalid', 'There is nothing to remember in that text.'));
    const landed = await this.vaults.remember(name.value, note);
    return ok({
      vault: name.value,
      id: note.id,
      status: 'provisional',
      category: note.category,
      text: note.text,
      already: landed.already,
      where: landed.where,
    });
  }

  async listDecisions(input: ListDecisionsToolInput): Promise<Result<ListDecisionsToolOutput>> {
    const name = this.#vaultName(input.vault);
    if (!name.ok) return name;
    const { vault } = await this.vaults.get(name.value);
    const sanitize = sanitizer(await this.#policy());
    const kept = (await vault.db.notes.where('status').equals('kept').toArray()).filter((n) => n.category === 'Decisions');
    const topic = input.topic ? new Set(analyze(input.topic)) : null;
    const matching = topic ? kept.filter((n) => analyze(n.text).some((w) => topic.has(w))) : kept;
    matching.sort((a, b) => (b.keptAt ?? b.createdAt) - (a.keptAt ?? a.createdAt) || a.id.localeCompare(b.id));
    const shown = matching.slice(0, input.limit ?? 50);
    const titles = new Map(
      (await vault.db.conversations.bulkGet([...new Set(shown.map((n) => n.conversationId).filter((id): id is string => id !== null))]))
        .filter((c) => c !== undefined)
        .map((c) => [c.id, c.title]),
    );
    return ok({
      vault: name.value,
      decisions: shown.map((n) => ({
        id: n.id,
        text: sanitize(n.text, n.id),
        kept_at: iso(n.keptAt),
        created_at: iso(n.createdAt)!,
        source: {
          kind: n.conversationId ? 'conversation' : 'note',
          conversation_id: n.conversationId,
          title: n.conversationId ? (titles.get(n.conversationId) ?? null) : null,
          message_ids: [...n.sourceMessageIds],
        },
      })),
    });
  }
}

/** What an id names: a chunk, a message or a note, and the turns it covers. */
async function locate(
  vault: Vault,
  id: string,
): Promise<{ conversationId: string | null; messageIds: string[]; note: NoteRecord | null } | null> {
  // A session summary stands for its conversation.
  if (id.startsWith('summary:')) return { conversationId: id.slice('summary:'.length), messageIds: [], note: null };
  const chunk = await vault.db.chunks.get(id);
  if (chunk) {
    if (chunk.parentType === 'note') {
      const note = (await vault.db.notes.get(chunk.parentId)) ?? null;
      return { conversationId: note?.conversationId ?? chunk.conversationId, messageIds: note?.sourceMessageIds ?? chunk.messageIds, note };
    }
    return { conversationId: chunk.conversationId, messageIds: chunk.messageIds, note: null };
  }
  const message = await getMessage(vault.db, id);
  if (message && message.state === 'visible') return { conversationId: message.conversationId, messageIds: [message.id], note: null };
  const note = await vault.db.notes.get(id);
  if (note && note.status !== 'discarded') {
    const first = note.sourceMessageIds.length ? await getMessage(vault.db, note.sourceMessageIds[0]!) : undefined;
    return { conversationId: note.conversationId ?? first?.conversationId ?? null, messageIds: note.sourceMessageIds, note };
  }
  // A conversation id (a structural item's source): its opening turns.
  if (await vault.db.conversations.get(id)) return { conversationId: id, messageIds: [], note: null };
  return null;
}
