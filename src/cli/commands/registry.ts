import type { Command } from '../command';
import { evalCommand } from './eval';
import { exportCommand } from './export';
import { importCommand } from './import';
import { mergeCommand } from './merge';
import { recallCommand } from './recall';
import { versionCommand } from './version';

/** Every CLI command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [versionCommand, importCommand, recallCommand, exportCommand, mergeCommand, evalCommand];
