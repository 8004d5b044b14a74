import { basename, join } from 'node:path';
import { z } from 'zod';
import { shortId } from '../../../src-shared/ids';
import type { Tool, ToolContext, ToolOutcome } from '../tool-types';
import { joinArgv, splitCommand } from './argv';
import type { RunningCommand, ShellRegistry } from './shell-work';

// The shell tool: runs a program the manifest lists in capabilities.shell.allow, without a shell,
// in the foreground (output returned) or detached (a work id returned, output to a log file in the
// session's records). A cancel never waits for a command: a foreground one is moved to the
// background and reported as residue, like a detached one; the session's end kills them.

export interface ShellToolDeps {
  /** capabilities.shell.allow: program names (matched against argv[0]'s basename) or exact paths. */
  allow: readonly string[];
  /** Where commands run (the manifest's folder). */
  cwd: string;
  /** The session's records folder; detached output goes to `shell/<work id>.log` under it. */
  workdir: () => string;
  registry: ShellRegistry;
  /** Values that must not reach a command's environment. */
  secrets?: readonly string[];
  env?: Record<string, string | undefined>;
}

const OUTPUT_CAP = 16 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_TIMEOUT_MS = 600_000;

// The model writes these: bounded, and no NUL byte (a program's arguments cannot hold one).
const MAX_COMMAND = 64 * 1024;
const MAX_ARGS = 1024;
const word = z
  .string()
  .max(MAX_COMMAND)
  .refine((s) => !s.includes('\0'), 'must not contain a NUL character');
const argsSchema = z.strictObject({
  command: z.union([word.refine((s) => s.length > 0, 'must not be empty'), z.array(word).min(1).max(MAX_ARGS)]),
  detach: z.boolean().optional(),
  timeout_ms: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
});

/** Whether argv[0] names an allowed program: a listed name (by basename) or a listed exact path. */
export function shellAllows(argv0: string, allow: readonly string[]): boolean {
  return allow.some((entry) => (entry.includes('/') ? argv0 === entry : basename(argv0) === entry));
}

/** The environment a command sees: the runtime's, without anything that looks like a credential. */
function commandEnv(deps: ShellToolDeps): Record<string, string> {
  const secrets = new Set((deps.secrets ?? []).filter((s) => s.length >= 4));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(deps.env ?? process.env)) {
    if (v === undefined || secrets.has(v) || /KEY|TOKEN|SECRET|PASSW|CREDENTIAL/i.test(k)) continue;
    out[k] = v;
  }
  return out;
}

/** Keeps the tail of a stream, up to the cap, and counts what it dropped. */
function capture(stream: NodeJS.ReadableStream | null) {
  let text = '';
  let dropped = 0;
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    text += chunk;
    if (text.length > OUTPUT_CAP) {
      dropped += text.length - OUTPUT_CAP;
      text = text.slice(-OUTPUT_CAP);
    }
  });
  return () => (dropped ? `[… ${dropped} characters cut …]\n${text}` : text);
}

function report(code: number | null, stdout: string, stderr: string, note?: string): string {
  const lines = [note ?? `exit code: ${code ?? 'killed by a signal'}`];
  if (stdout) lines.push('--- stdout ---', stdout.replace(/\n$/, ''));
  if (stderr) lines.push('--- stderr ---', stderr.replace(/\n$/, ''));
  return lines.join('\n');
}

export function createShellTool(deps: ShellToolDeps): Tool {
  return {
    spec: {
      name: 'shell',
      description:
        `Runs one program with arguments, without a shell (no pipes, redirections or variables). ` +
        `Allowed programs: ${deps.allow.length ? deps.allow.join(', ') : '(none)'}. ` +
        `Foreground runs return exit code, stdout and stderr; detach: true returns a work id at once and keeps the command running.`,
      parameters: {
        type: 'object',
        properties: {
          command: {
            description: 'The command line (split into words like a shell would, quotes respected) or an argv array.',
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          },
          detach: { type: 'boolean', description: 'Keep it running in the background and return its work id.' },
          timeout_ms: {
            type: 'integer',
            description: `Foreground time limit (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`,
          },
        },
        required: ['command'],
      },
    },
    async run(raw, ctx) {
      const parsed = argsSchema.safeParse(raw);
      if (!parsed.success)
        return {
          ok: false,
          error: `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}`,
        };
      const args = parsed.data;
      let argv: string[];
      if (typeof args.command === 'string') {
        const split = splitCommand(args.command);
        if (!split.ok) return { ok: false, error: split.error };
        argv = split.argv;
      } else argv = args.command;
      if (!shellAllows(argv[0], deps.allow)) {
        return {
          ok: false,
          error: `shell_not_allowed: ${argv[0]} is not in capabilities.shell.allow (${deps.allow.join(', ') || 'empty'})`,
        };
      }
      if (ctx.signal.aborted) return { ok: false, error: 'canceled before the command started' };
      const workId = shortId('wrk');
      const command = typeof args.command === 'string' ? args.command : joinArgv(argv);
      const logFile = args.detach ? join(deps.workdir(), 'shell', `${workId}.log`) : undefined;
      const cmd = deps.registry.spawn({ workId, argv, command, cwd: deps.cwd, env: commandEnv(deps), logFile });
      ctx.trace({ event_type: 'shell_start', work_id: workId, binary: argv[0], command, detached: !!args.detach });
      void cmd.exited.then((code) =>
        ctx.trace({
          event_type: 'shell_exit',
          work_id: workId,
          exit_code: code,
          ...(cmd.killedBy ? { killed_by: cmd.killedBy } : {}),
        }),
      );
      if (args.detach) return detached(cmd, ctx, logFile!);
      return foreground(cmd, ctx, args.timeout_ms ?? DEFAULT_TIMEOUT_MS, deps.registry);
    },
  };
}

async function detached(cmd: RunningCommand, ctx: ToolContext, logFile: string): Promise<ToolOutcome> {
  // A program that cannot start fails now, not silently in the background.
  await Promise.race([cmd.exited, new Promise<void>((r) => cmd.child.once('spawn', () => r()))]);
  if (cmd.startError) return { ok: false, error: `${cmd.binary} could not start: ${cmd.startError.message}` };
  const untrack = ctx.track({
    describe: () => `detached shell ${cmd.workId}: ${cmd.command}`,
    cancel: async () => cmd.residue(),
  });
  void cmd.exited.then(untrack);
  return {
    ok: true,
    content: `started in the background as ${cmd.workId} (pid ${cmd.child.pid}); output goes to ${logFile}`,
  };
}

async function foreground(
  cmd: RunningCommand,
  ctx: ToolContext,
  timeoutMs: number,
  registry: ShellRegistry,
): Promise<ToolOutcome> {
  const stdout = capture(cmd.child.stdout);
  const stderr = capture(cmd.child.stderr);
  let moved!: () => void;
  const movedAway = new Promise<'moved'>((r) => (moved = () => r('moved')));
  const moveToBackground = () => {
    cmd.background = true;
    moved();
  };
  const untrack = ctx.track({
    describe: () => `shell ${cmd.workId}: ${cmd.command}`,
    // Not awaited and not killed: the task ends now and the command keeps running until it
    // finishes or the session ends.
    cancel: async () => {
      moveToBackground();
      return cmd.residue();
    },
  });
  const onAbort = () => moveToBackground();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => void registry.kill(cmd, `timeout after ${timeoutMs} ms`), timeoutMs);
  try {
    const first = await Promise.race([cmd.exited, movedAway]);
    if (first === 'moved') {
      return { ok: false, error: `canceled; ${cmd.command} keeps running in the background as ${cmd.workId}` };
    }
    if (cmd.startError) return { ok: false, error: `${cmd.binary} could not start: ${cmd.startError.message}` };
    if (cmd.killedBy) return { ok: false, error: report(first, stdout(), stderr(), `killed: ${cmd.killedBy}`) };
    const text = report(first, stdout(), stderr());
    return first === 0 ? { ok: true, content: text } : { ok: false, error: text };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    // A moved command stays tracked until it exits, so a session stop still names it.
    if (cmd.background) void cmd.exited.then(untrack);
    else untrack();
  }
}
