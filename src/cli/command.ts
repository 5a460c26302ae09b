import type { VaultError } from '../lib/core/errors';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** What a command returns: data for `--json`, and the same as text for people. */
export interface CommandResult {
  json: unknown;
  text: string;
  /** Non-zero when the command failed (errors are also in `json`). */
  exitCode?: number;
  /** Print nothing (a command that spoke its own protocol on stdout, `engram mcp`). */
  silent?: boolean;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CliIo): Promise<CommandResult>;
}

export class UsageError extends Error implements VaultError {
  readonly code = 'cli/usage' as const;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
