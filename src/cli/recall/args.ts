/** Option parsing for the recall commands: `node:util` parseArgs, with usage errors in the CLI's shape. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../command';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (thrown) {
    throw new UsageError(thrown instanceof Error ? thrown.message.split('\n')[0]! : String(thrown));
  }
}

/** "5,10" -> [5, 10]: positive integers, in order, each once. */
export function intList(value: string | undefined, fallback: number[], name: string): number[] {
  if (value === undefined) return fallback;
  const parts = value.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.some((p) => !/^\d+$/u.test(p)) || numbers.some((n) => n <= 0)) {
    throw new UsageError(`--${name} takes positive whole numbers separated by commas (e.g. ${fallback.join(',')}).`);
  }
  return [...new Set(numbers)];
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} is one of ${allowed.join(', ')}.`);
  return value as T;
}
