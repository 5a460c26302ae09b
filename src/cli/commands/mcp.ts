import { open } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AgentTools } from '../../lib/services/agent/agent-tools';
import { UsageError, type Command } from '../command';
import { FileVaults, type ServedFile } from '../mcp/file-vaults';
import { createAgentServer } from '../mcp/server';
import { oneOf, parseCommandArgs } from '../recall/args';
import { promptOnTerminal } from '../tty';
import { APP_VERSION } from './vault-file';

/** The environment variable read for encrypted vault files when --passphrase-env names none. */
export const DEFAULT_PASSPHRASE_ENV = 'ENGRAM_PASSPHRASE';

/** Whether a vault file is encrypted (its one plaintext line says so). */
export async function isEncryptedFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    const first = JSON.parse(end === -1 ? text : text.slice(0, end)) as Record<string, unknown>;
    return typeof first === 'object' && first !== null && 'encryption' in first;
  } catch {
    // Not a vault file's first line: loading it says what is wrong.
    return false;
  } finally {
    await handle.close();
  }
}

/** Each encrypted file's passphrase, asked once at start: the environment variable, else the terminal. */
async function passphrases(paths: readonly string[], envName: string | undefined): Promise<ServedFile[]> {
  const name = envName ?? DEFAULT_PASSPHRASE_ENV;
  const fromEnv = process.env[name] || null;
  if (envName !== undefined && !fromEnv)
    throw new UsageError(`The environment variable ${envName} (--passphrase-env) is not set or empty.`);
  const files: ServedFile[] = [];
  for (const path of paths) {
    if (!(await isEncryptedFile(path).catch(() => false))) {
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

/**
 * `engram mcp`: a Model Context Protocol server over stdio for agents (Claude Desktop, Cursor, VS
 * Code, ...), answering from vault files with the app's recall path. Runs until the client closes.
 */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve vault files to agents over the Model Context Protocol (stdio): recall, search, expand, remember, list_decisions.',
  usage:
    'mcp --vault FILE.engram [--vault FILE2.engram ...] [--passphrase-env VAR] [--vectors auto|exact|hnsw]\n' +
    `  Encrypted files: the passphrase comes from $${DEFAULT_PASSPHRASE_ENV} (or the variable --passphrase-env names), else it is asked on the terminal; never in a tool argument.`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      vault: { type: 'string', multiple: true },
      'passphrase-env': { type: 'string' },
      vectors: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}": name vault files with --vault FILE.`);
    const paths = values.vault ?? [];
    if (paths.length === 0) throw new UsageError('Name at least one vault file with --vault FILE.');
    const vectorSearch = oneOf(values.vectors, ['auto', 'exact', 'hnsw'] as const, 'auto', 'vectors');
    const files = await passphrases(paths, values['passphrase-env']);
    const vaults = await FileVaults.open(files, { vectorSearch, log: (line) => io.err(line) });
    try {
      const tools = new AgentTools(vaults, { writeBack: false });
      const server = createAgentServer(tools, { version: APP_VERSION, vaults: vaults.names() });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
      });
      await server.connect(transport);
      io.err(
        `engram mcp: serving ${vaults
          .names()
          .map((n) => `"${n}"`)
          .join(', ')} on stdio.`,
      );
      await closed;
      await server.close().catch(() => undefined);
    } finally {
      await vaults.close();
    }
    return { json: null, text: '', silent: true };
  },
};
