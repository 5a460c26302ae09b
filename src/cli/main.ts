/**
 * `npm run engram -- <command> [options]`: the vault's command-line tool. It composes the same
 * core and store as the app (Dexie over fake-indexeddb in Node). Human-readable output by default,
 * JSON with `--json`. Exit codes: 0 success, 1 the command failed, 2 usage error.
 */
import './node-env';
import { plainError } from '../lib/core/errors';
import { loadTokenCounter } from '../lib/core/text/token-count';
import { UsageError, type CliIo } from './command';
import { COMMANDS } from './commands/registry';
import { streamIo } from './stdio';

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Engram Vault command-line tool',
    '',
    'Usage: npm run engram -- <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  --json   print JSON instead of text',
    '  --help   show this help, or a command\'s usage with "<command> --help"',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const [name, ...rest] = argv.filter((a) => a !== '--json');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(
      json
        ? JSON.stringify({ commands: COMMANDS.map(({ name: n, summary, usage }) => ({ name: n, summary, usage })) }, null, 2)
        : helpText(),
    );
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${helpText()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`Usage: npm run engram -- ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    // Every command that chunks, extracts or recalls counts tokens: load the counter once, here
    // (the app loads it on demand, core/text/token-count.ts).
    await loadTokenCounter();
    const result = await command.run(json ? [...rest, '--json'] : rest, io);
    if (!result.silent) io.out(json ? JSON.stringify(result.json, null, 2) : result.text);
    return result.exitCode ?? 0;
  } catch (thrown) {
    const error = plainError(thrown);
    if (json) io.out(JSON.stringify({ error }, null, 2));
    else io.err(`${error.message}${thrown instanceof UsageError ? `\nUsage: npm run engram -- ${command.usage}` : ''}`);
    return thrown instanceof UsageError ? 2 : 1;
  }
}

const isEntry = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) {
  // stdout carries the command's output only (JSON with --json): libraries that log to the console
  // (hnswlib-wasm's file system messages) are sent to stderr.
  console.log = console.info = (...args: unknown[]) => console.error(...args);
  const io = streamIo(process.stdout, process.stderr);
  const code = await main(process.argv.slice(2), io).catch((error: unknown) => {
    io.err(String(error));
    return 1;
  });
  process.exitCode = code;
  // Exit only once the output has left the process: a pipe takes 64 KiB at a time, and exiting
  // earlier cut `--json | jq` answers there. Exiting (rather than letting the loop end) still
  // matters: a model runtime or a timer left behind must not keep a finished command alive.
  await io.drained();
  process.exit(code);
}
