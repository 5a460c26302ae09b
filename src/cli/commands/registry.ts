import type { Command } from '../command';
import { evalCommand } from './eval';
import { versionCommand } from './version';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [versionCommand, evalCommand];
