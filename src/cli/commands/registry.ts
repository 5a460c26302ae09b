import type { Command } from '../command';
import { evalCommand } from './eval';
import { importCommand } from './import';
import { recallCommand } from './recall';
import { versionCommand } from './version';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [versionCommand, importCommand, recallCommand, evalCommand];
