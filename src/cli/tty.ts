/**
 * Asking a person for a secret when stdin and stdout are taken (`engram mcp` speaks JSON-RPC on
 * them): the controlling terminal, /dev/tty, read without echo. Null when the process has no
 * terminal (an MCP client started it), so the caller can say which environment variable to set.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';

export async function promptOnTerminal(question: string): Promise<string | null> {
  const probe = await open('/dev/tty', 'r+').catch(() => null);
  if (!probe) return null;
  await probe.close();
  const input = createReadStream('/dev/tty');
  const output = createWriteStream('/dev/tty');
  const rl = createInterface({ input, output, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (text: string) => void };
  muted._writeToOutput = (text: string) => {
    if (text.startsWith(question)) output.write(text);
  };
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    output.write('\n');
    rl.close();
    input.destroy();
    output.end();
  }
}
