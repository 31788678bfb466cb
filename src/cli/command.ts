import type { ParseArgsConfig } from 'node:util';
import type { HubClient } from './client.js';
import { UsageError, type Env, type Io } from './command-io.js';

export type Options = NonNullable<ParseArgsConfig['options']>;
/** Option values as parseArgs gives them: a `multiple` option's are an array. */
export type Values = Record<string, string | boolean | string[] | undefined>;

/** One client command: its usage, its arguments and what it does with a hub. */
export interface Command {
  readonly args: string;
  readonly summary: string;
  readonly positionals: number;
  /** Arguments that may follow the required ones. */
  readonly optionalPositionals?: number;
  readonly options?: Options;
  readonly optionHelp?: readonly string[];
  run(client: HubClient, values: Values, positionals: string[], io: Io, env: Env): Promise<number>;
}

/** A whole number of 0 or more from `--after`; null when not given. */
export function afterOption(value: Values[string]): number | null {
  if (value === undefined) return null;
  const after = Number(value);
  if (!(typeof value === 'string' && Number.isInteger(after) && after >= 0)) {
    throw new UsageError(
      `--after must be a whole number (0 or more), got ${JSON.stringify(value)}`,
    );
  }
  return after;
}

/** The values of a repeatable (`multiple`) string option, in the order given; none when absent. */
export function repeatedOption(value: Values[string]): string[] {
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** `-` means standard input; anything else is the text itself. */
export async function textArgument(value: string, io: Io): Promise<string> {
  return value === '-' ? io.readStdin() : value;
}
