/* eslint-disable @typescript-eslint/no-require-imports */
// The command registry: one line per command (name: [summary, lazy load]); a command module
// exports `usage` and `main(argv)`. Loaded with require, not import(): bin/capsule.js runs the
// sources through tsx's CommonJS hook, which resolves extensionless require() but not import().

export interface CommandModule {
  usage: string;
  /** Resolves with the exit code. */
  main(argv: string[]): Promise<number>;
}

export type CommandEntry = readonly [summary: string, load: () => CommandModule];

export const commands: Record<string, CommandEntry> = {
  run: ['start a capsule session from a manifest and keep it in the foreground', () => require('./run')],
  ps: ['list the capsule sessions running on this machine', () => require('./ps')],
  send: [
    'send a task to a running session and print its answer: send <session> <text> [--stream|--no-wait]',
    () => require('./send'),
  ],
  cancel: ['cancel one task of a running session: cancel <session> <task-id>', () => require('./cancel')],
  stop: ['stop a running session: cancel its tasks, report what it leaves running, end it', () => require('./stop')],
  studio: ['serve the Studio UI in a browser: studio --web [--workspace DIR] [--port N]', () => require('./studio')],
  trace: ['show or list recorded sessions: trace show [session] | trace ls', () => require('./trace')],
  expose: [
    'expose a capsule to outside A2A callers through the gateway: expose <session|name> [--revoke|--rotate]',
    () => require('./expose'),
  ],
  tunnel: [
    'reach the gateway from anywhere through a guarded public URL: tunnel create [--ttl 24h] [--provider cloudflared|ngrok] | ls | revoke <id> | stop <id>',
    () => require('./tunnel'),
  ],
  serve: [
    'headless: a workspace formation plus the gateway: serve --workspace DIR [--gateway-port N]',
    () => require('./serve'),
  ],
  rehearse: [
    'make an offline rehearsal (or a test) of a recorded session: rehearse --from <session> [--out DIR] [--save-test NAME]',
    () => require('./rehearse'),
  ],
  fork: [
    'run a recorded task again from a turn, the earlier turns replayed: fork --from <session> [--turn N] [--message TEXT]',
    () => require('./fork'),
  ],
  test: [
    'run the saved tests of a workspace against its manifests: test [--workspace W] [--junit FILE]',
    () => require('./test'),
  ],
  deploy: [
    'write Kubernetes manifests for a formation: deploy kubernetes --workspace DIR [--namespace N] [--out DIR]',
    () => require('./deploy'),
  ],
  history: [
    "list the steps of a workspace's history (every Studio save is one): history [--workspace W] [--start]",
    () => require('./history'),
  ],
  diff: [
    'what changed between two versions of a workspace, permissions named: diff <from> [to] [--workspace W]',
    () => require('./diff'),
  ],
  restore: [
    'put an earlier version of a workspace back, as a new step: restore <version> [--workspace W]',
    () => require('./restore'),
  ],
  publish: [
    'publish a version for outside callers once its tests pass (exit 1 if one fails): publish [version] [--workspace W] [--override]',
    () => require('./publish'),
  ],
  watch: ['follow a running session live: watch <session> | watch --url <door>', () => require('./watch')],
};
