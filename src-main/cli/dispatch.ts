import { commands } from './commands';
import { describeFileError, UserError } from './errors';
import { recordsLayout } from '../runtime/layout';
import { ADDRESS_RULE_HELP } from './session-help';

// Dispatches a command line to the registered commands and turns errors into one line + exit code.

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([name, [summary]]) => `  ${name.padEnd(width)}  ${summary}`);
  return [
    'usage: capsule <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'Sessions are named by address: @1, @2, …, the last 4+ characters of a session id, the full id,',
    'or a path to a trace.jsonl.',
    ADDRESS_RULE_HELP,
    'Records live under $CAPSULE_HOME (default ~/.capsule).',
    'Run `capsule <command> --help` for the options of a command.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' && rest[0] ? commands[rest[0]] : undefined;
    process.stdout.write(`${topic ? topic[1]().usage : usage()}\n`);
    return 0;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`capsule: unknown command "${name}"\n${usage()}\n`);
    return 2;
  }
  const command = entry[1]();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.main(rest);
}

export function report(err: unknown): number {
  // A raw file-system failure (`ENOTDIR: not a directory, mkdir '…'`) is put in words.
  const message =
    describeFileError(err, recordsLayout(process.env).home) ?? (err instanceof Error ? err.message : String(err));
  process.stderr.write(`capsule: ${message}\n`);
  if (process.env.CAPSULE_DEBUG && err instanceof Error && !(err instanceof UserError))
    process.stderr.write(`${err.stack}\n`);
  return err instanceof UserError ? err.exitCode : 1;
}
