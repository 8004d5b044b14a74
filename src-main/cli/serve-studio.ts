import { join, resolve } from 'node:path';
import { createCore } from '../core';
import { createExposureStore, isLoopback } from '../gateway';
import { recordsLayout } from '../runtime/layout';
import { createShutdown } from '../shell/shutdown';
import { privateFolder } from '../secrets';
import { listRunningSessions } from '../trace';
import { startRemoteStudio, STUDIO_TOKEN_NAME } from '../shell/web';
import { intOption } from './args';
import { UserError } from './errors';

// `capsule serve --workspace DIR --studio`: the formation run by a Studio core on this machine,
// its contract offered to Studios elsewhere over one WebSocket, with a token. The token is made
// on the first start and printed once (only its hash is kept, in $CAPSULE_HOME/studio/remote);
// `--studio-token rotate` prints a new one, `--studio-token revoke` ends it, at once, even for a
// server already running. TLS is a reverse proxy's job: put one in front and pass --public-origin.

const ROOT = resolve(__dirname, '../..');

export const tokenDir = (home: string) => join(home, 'studio', 'remote');

/** The token store, in the Studio's folder (made only-the-owner, as the Studio makes it). */
function studioTokens(home: string) {
  privateFolder(join(home, 'studio'));
  return createExposureStore(tokenDir(home));
}

interface StudioValues {
  'studio-port'?: string;
  host?: string;
  'public-origin'?: string;
  'allow-host-commands'?: boolean;
}

/** `--studio-token rotate|revoke`: edits the token store and returns. */
export function manageStudioToken(action: string): number {
  const tokens = studioTokens(recordsLayout(process.env).home);
  try {
    if (action === 'revoke') {
      if (!tokens.revoke(STUDIO_TOKEN_NAME)) throw new UserError('there is no Studio token to revoke');
      process.stdout.write('revoked: the Studio token (attached Studios are disconnected)\n');
      return 0;
    }
    if (action !== 'rotate') throw new UserError(`--studio-token takes rotate or revoke, not "${action}"`, 2);
    const { token } = tokens.get(STUDIO_TOKEN_NAME)
      ? tokens.rotate(STUDIO_TOKEN_NAME)
      : tokens.enable(STUDIO_TOKEN_NAME);
    process.stdout.write(`studio token: ${token}\n(shown once; the old one no longer works)\n`);
    return 0;
  } finally {
    tokens.dispose();
  }
}

export async function serveStudio(
  workspace: string,
  values: StudioValues,
  publicOrigin: string | undefined,
): Promise<number> {
  const port = intOption('studio-port', values['studio-port'], 65535);
  const host = values.host ?? '127.0.0.1';
  const layout = recordsLayout(process.env);
  const tokens = studioTokens(layout.home);
  const core = createCore({
    userDataDir: join(layout.home, 'studio'),
    recordsRoot: layout.records,
    resourcesDir: join(ROOT, 'resources'),
    workspace,
  });
  let remote: { url: string; dispose(): Promise<void> } | undefined;

  // Ctrl-C or SIGTERM: attached Studios are disconnected and every session ends cleanly; a second
  // one forces it. The signals are ours before the formation launches: a Ctrl-C while it comes up
  // must end the capsules launched so far, not kill the process under them.
  let start: Promise<void> = Promise.resolve();
  let exit!: (code: number) => void;
  const exited = new Promise<number>((r) => (exit = r));
  const shutdown = createShutdown({
    async stop() {
      await start.catch(() => undefined);
      await remote?.dispose();
      await core.dispose();
      tokens.dispose();
    },
    exit,
    log: (line) => process.stderr.write(`capsule: ${line}\n`),
    running: () => listRunningSessions(layout.running, { prune: false }).filter((s) => s.pid === process.pid).length,
  });
  const offSignals = shutdown.handleSignals();

  start = (async () => {
    await core.ready;
    const launched = await core.handle('formation.launch', {});
    // A workspace the core cannot open (its formation.yaml unreadable, a folder) launches nothing:
    // said, and nothing is served, as plain `serve` refuses it.
    if (!launched.ok) throw new UserError(`the formation did not launch: ${launched.error.message}`);
    const { launched: ok, failed } = launched.value as {
      launched: string[];
      failed: { id: string; message: string }[];
    };
    for (const id of ok) process.stdout.write(`capsule: ${id} launched\n`);
    for (const f of failed) process.stderr.write(`capsule: ${f.id} did not launch: ${f.message}\n`);
    if (shutdown.state !== 'running') return;
    // An attached Studio works inside the served workspace; running commands on this host (harness
    // CLIs, shell allow lists) and folders elsewhere need the host's explicit opt-in.
    const scope = { allowHostCommands: values['allow-host-commands'] === true, workspaces: [workspace] };
    remote = await startRemoteStudio({
      core,
      tokens,
      host,
      scope,
      ...(port !== undefined ? { port } : {}),
      ...(publicOrigin ? { publicOrigin } : {}),
    }).catch((err: Error) => {
      throw new UserError(`the Studio cannot listen on ${host}:${port ?? 0}: ${err.message}`);
    });
    if (!isLoopback(host))
      process.stderr.write(
        `capsule: warning: the Studio binds ${host}: other machines can reach it (every connection still needs the token; put TLS in front)\n`,
      );
    if (scope.allowHostCommands)
      process.stderr.write(
        'capsule: warning: --allow-host-commands: the Studio token can run any command on this host as this user (harness CLIs, shell tools) and use any folder\n',
      );
    process.stdout.write(`studio: ${remote.url}\n`);
    if (!tokens.get(STUDIO_TOKEN_NAME))
      process.stdout.write(
        `studio token: ${tokens.enable(STUDIO_TOKEN_NAME).token}\n(shown once; capsule serve --studio-token rotate makes a new one)\n`,
      );
  })();

  try {
    await start;
  } catch (err) {
    // A start that fails while a shutdown runs is that shutdown's business (it waits for this).
    if (shutdown.state !== 'running') return exited;
    offSignals();
    await core.dispose().catch(() => undefined);
    tokens.dispose();
    throw err;
  }
  return exited;
}
