import type { Command } from '../command';
import { evalCommand } from './eval';
import { exportCommand } from './export';
import { mergeCommand } from './merge';
import { versionCommand } from './version';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [versionCommand, evalCommand, exportCommand, mergeCommand];
