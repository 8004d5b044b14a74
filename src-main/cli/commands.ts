// The command registry: one line per command (name: [summary, lazy import]). Other parts of the
// product add their command here with one line; a module exports `usage` and `main(argv)`.

export interface CommandModule {
  usage: string;
  /** Resolves with the exit code. */
  main(argv: string[]): Promise<number>;
}

export type CommandEntry = readonly [summary: string, load: () => Promise<CommandModule>];

export const commands: Record<string, CommandEntry> = {
  run: ['start a capsule session from a manifest and keep it in the foreground', () => import('./run')],
  ps: ['list the capsule sessions running on this machine', () => import('./ps')],
  cancel: ['cancel one task of a running session: cancel <session> <task-id>', () => import('./cancel')],
  stop: ['stop a running session: cancel its tasks, report what it leaves running, end it', () => import('./stop')],
  trace: ['show or list recorded sessions: trace show [session] | trace ls', () => import('./trace')],
};
