import type { Command } from '../command';
import { evalCommand } from './eval';
import { exportCommand } from './export';
import { extractCommand } from './extract';
import { importCommand } from './import';
import { indexCommand } from './index-vault';
import { mcpCommand } from './mcp';
import { mergeCommand } from './merge';
import { recallCommand } from './recall';
import { vaultsCommand } from './vaults';
import { versionCommand } from './version';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  versionCommand,
  importCommand,
  indexCommand,
  recallCommand,
  exportCommand,
  mergeCommand,
  evalCommand,
  extractCommand,
  vaultsCommand,
  mcpCommand,
];
