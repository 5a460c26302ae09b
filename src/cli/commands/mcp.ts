import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { vaultError } from '../../lib/core/errors';
import type { NoteRecord } from '../../lib/core/records';
import { AgentTools, type AgentVault, type AgentVaults } from '../../lib/services/agent/agent-tools';
import { UsageError, type Command } from '../command';
import { FileVaults, stemOf, type ServedFile } from '../mcp/file-vaults';
import { createAgentServer } from '../mcp/server';
import { oneOf, parseCommandArgs } from '../recall/args';
import { promptOnTerminal } from '../tty';
import { APP_VERSION, exists, isEncryptedFile } from './vault-file';
import { listVaultFile } from './vaults';

/** The environment variable read for encrypted vault files when --passphrase-env names none. */
export const DEFAULT_PASSPHRASE_ENV = 'ENGRAM_PASSPHRASE';

/** Each encrypted file's passphrase, asked once at start: the environment variable, else the terminal. */
async function passphrases(paths: readonly string[], envName: string | undefined): Promise<ServedFile[]> {
  const name = envName ?? DEFAULT_PASSPHRASE_ENV;
  const fromEnv = process.env[name] || null;
  if (envName !== undefined && !fromEnv)
    throw new UsageError(`The environment variable ${envName} (--passphrase-env) is not set or empty.`);
  const files: ServedFile[] = [];
  for (const path of paths) {
    if (!(await exists(path))) throw new UsageError(`${path} does not exist.`);
    if (!(await isEncryptedFile(path))) {
      files.push({ path, passphrase: null });
      continue;
    }
    const passphrase = fromEnv ?? (await promptOnTerminal(`Passphrase for ${path}: `));
    if (!passphrase)
      throw new UsageError(
        `${path} is encrypted: set ${name} to its passphrase in the MCP client's configuration (or start engram mcp in a terminal).`,
      );
    files.push({ path, passphrase });
  }
  return files;
}

/** The vaults' names, read from the files before anything loads (the tools' schemas list them); unique. */
async function vaultNames(files: readonly ServedFile[]): Promise<string[]> {
  const names: string[] = [];
  for (const file of files) {
    if (!(await exists(file.path))) throw new UsageError(`${file.path} does not exist.`);
    const listing = await listVaultFile(file.path, file.passphrase);
    if (listing.error) throw new UsageError(`${file.path}: ${listing.error}`);
    let name = listing.name;
    if (names.some((n) => n.toLowerCase() === name.toLowerCase())) name = `${name} (${stemOf(file.path)})`;
    names.push(name);
  }
  return names;
}

/** How long a call waits for the files to load before it answers "still loading" (clients time out around a minute). */
export const LOAD_WAIT_MS = 45_000;

/** The served vaults while they load: names at once, answers once loaded (a failed load fails every call). */
export class WhenLoaded implements AgentVaults {
  #loaded: FileVaults | null = null;

  constructor(
    private readonly known: readonly string[],
    private readonly opening: Promise<FileVaults>,
    private readonly waitMs: number = LOAD_WAIT_MS,
  ) {
    opening.then(
      (vaults) => (this.#loaded = vaults),
      () => undefined,
    );
  }

  names(): readonly string[] {
    return this.known;
  }

  async #vaults(): Promise<FileVaults> {
    if (this.#loaded) return this.#loaded;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            vaultError('agent/loading', `Still loading and indexing ${this.known.map((n) => `"${n}"`).join(', ')}; try again in a minute.`),
          ),
        this.waitMs,
      );
    });
    try {
      return await Promise.race([this.opening, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async get(name: string): Promise<AgentVault> {
    return (await this.#vaults()).get(name);
  }

  async remember(name: string, note: NoteRecord): Promise<{ already: boolean; where: string }> {
    return (await this.#vaults()).remember(name, note);
  }
}

/**
 * `engram mcp`: a Model Context Protocol server over stdio for agents (Claude Desktop, Cursor, VS
 * Code, ...), answering from vault files with the app's recall path. Runs until the client closes.
 */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve vault files to agents over the Model Context Protocol (stdio): recall, search, expand, remember, list_decisions.',
  usage:
    'mcp --vault FILE.engram [--vault FILE2.engram ...] [--passphrase-env VAR] [--vectors auto|exact|hnsw] [--flagged-lines drop|quote]\n' +
    `  Encrypted files: the passphrase comes from $${DEFAULT_PASSPHRASE_ENV} (or the variable --passphrase-env names), else it is asked on the terminal; never in a tool argument.\n` +
    '  --flagged-lines: a line flagged as possible prompt injection is dropped with a marker (default) or quoted as data; a vault file carries no device settings.',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      vault: { type: 'string', multiple: true },
      'passphrase-env': { type: 'string' },
      vectors: { type: 'string' },
      'flagged-lines': { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}": name vault files with --vault FILE.`);
    const paths = values.vault ?? [];
    if (paths.length === 0) throw new UsageError('Name at least one vault file with --vault FILE.');
    if (new Set(paths).size !== paths.length) throw new UsageError('A vault file is named twice.');
    const vectorSearch = oneOf(values.vectors, ['auto', 'exact', 'hnsw'] as const, 'auto', 'vectors');
    const flaggedLines = oneOf(values['flagged-lines'], ['drop', 'quote'] as const, 'drop', 'flagged-lines');
    const files = await passphrases(paths, values['passphrase-env']);
    const names = await vaultNames(files);
    // The protocol starts at once (clients give up on a slow handshake); calls wait for the files to load.
    const opening = FileVaults.open(files, names, { vectorSearch, log: (line) => io.err(line) });
    const vaults = new WhenLoaded(names, opening);
    const server = createAgentServer(new AgentTools(vaults, { writeBack: false, flaggedLines: () => flaggedLines }), {
      version: APP_VERSION,
      vaults: names,
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    io.err(`engram mcp: serving ${names.map((n) => `"${n}"`).join(', ')} on stdio (loading the files).`);
    const loaded = await Promise.race([
      opening.then(
        () => null,
        (error: unknown) => error,
      ),
      closed.then(() => null),
    ]);
    if (loaded !== null) {
      await server.close().catch(() => undefined);
      throw loaded;
    }
    await closed;
    await server.close().catch(() => undefined);
    await (await opening.catch(() => null))?.close();
    return { json: null, text: '', silent: true };
  },
};
