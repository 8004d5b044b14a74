import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCore } from '../core';
import { recordsLayout } from '../runtime/layout';
import { createShutdown } from '../shell/shutdown';
import { pointEarlierAddresses, startWebShell } from '../shell/web';
import { listRunningSessions } from '../trace';
import { intOption, parseCommandArgs } from './args';
import { UserError } from './errors';
import { STAND_IN_VAR } from './stand-in-var';

// `capsule studio --web`: the Studio in a browser, for machines without a display and for tests.
// Prints `studio: <url>` once the page and its socket answer, then runs until Ctrl-C/SIGTERM,
// which end the formation's sessions cleanly (a second Ctrl-C forces the exit; see shell/shutdown).

export const usage = `usage: capsule studio --web [--workspace DIR] [--port N]
  --web        serve the Studio UI on http://127.0.0.1 (the desktop app starts with npm start)
  --workspace  the workspace folder to open (default: the one opened last, else your copy of the example)
  --port, -p   the port to listen on (default 0: the OS picks)
Records go to $CAPSULE_HOME/records; Studio state (recent workspaces, the example copy) to $CAPSULE_HOME/studio.`;

const options = {
  web: { type: 'boolean' },
  workspace: { type: 'string', short: 'w' },
  port: { type: 'string', short: 'p' },
} as const;

/**
 * Test support, loaded only when the end-to-end tests ask for it: a product start never reads it.
 * A require, as the CLI runs as CommonJS through tsx (a dynamic import would skip tsx's loader).
 */
function loadStandIn(): typeof import('./tunnel-stand-in') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./tunnel-stand-in') as typeof import('./tunnel-stand-in');
}

/** The repository root (the CLI runs from source through tsx). */
const ROOT = resolve(__dirname, '../..');

export async function main(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('studio', argv, options, usage);
  if (!values.web)
    throw new UserError(
      `studio: this command serves the web UI; pass --web (the desktop app starts with npm start)\n${usage}`,
      2,
    );
  const port = intOption('port', values.port, 65535);
  const workspace = values.workspace ? resolve(values.workspace) : undefined;
  if (workspace && !existsSync(workspace))
    throw new UserError(`studio: the workspace folder ${workspace} does not exist`);
  if (workspace && !existsSync(join(workspace, 'formation.yaml')))
    throw new UserError(`studio: ${workspace} has no formation.yaml (not a Studio workspace)`);

  const layout = recordsLayout(process.env);
  const ports =
    process.env[STAND_IN_VAR] === '1'
      ? loadStandIn().standInPorts(process.env, (line) => process.stderr.write(`studio: ${line}\n`))
      : {};
  const core = createCore(
    {
      userDataDir: join(layout.home, 'studio'),
      recordsRoot: layout.records,
      resourcesDir: join(ROOT, 'resources'),
      workspace,
    },
    ports,
  );
  const offNotice = core.subscribe((event, payload) => {
    if (event === 'notice.raised') process.stderr.write(`studio: ${(payload as { message: string }).message}\n`);
  });
  await core.ready;
  let shell;
  try {
    shell = await startWebShell({ core, rendererDir: join(ROOT, 'out', 'renderer'), port });
  } catch (err) {
    await core.dispose();
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(
      code === 'EADDRINUSE'
        ? `studio: port ${port} is already in use; pick another with --port or use --port 0`
        : `studio: ${(err as Error).message}`,
    );
  }
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    process.stderr.write('studio: the UI is not built yet; run npm run build\n');

  const web = shell;
  // A page still open on an earlier start's address learns this one from there (shell/web/moved.ts).
  const earlier = await pointEarlierAddresses({ dataDir: join(layout.home, 'studio'), port: web.port, url: web.url });
  // The command returns (and the process exits with its code) once the shutdown is done or forced.
  return new Promise<number>((exit) => {
    const shutdown = createShutdown({
      async stop() {
        offNotice();
        await earlier.dispose();
        await web.dispose();
        await core.dispose();
      },
      exit,
      log: (line) => process.stderr.write(`studio: ${line}\n`),
      running: () => listRunningSessions(layout.running, { prune: false }).filter((s) => s.pid === process.pid).length,
    });
    shutdown.handleSignals();
    // Only now its url: a script (or a test) may signal the process the moment it has read it.
    process.stdout.write(`studio: ${web.url}\n`);
  });
}
