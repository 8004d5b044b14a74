import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UserError } from './errors';

// node:util parseArgs, with its errors turned into one-line user errors.

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(command: string, argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UserError(`${command}: ${(err as Error).message.split('\n')[0]}\n${usage}`, 2);
  }
}

/** A non-negative integer option, or undefined when absent. */
export function intOption(name: string, value: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > max)
    throw new UserError(`--${name} must be a whole number between 0 and ${max}, not "${value}"`);
  return n;
}
