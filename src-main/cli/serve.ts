import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createGateway, gatewayDataDir, runningResolver, sessionCapsule } from '../gateway';
import { formatIssues, ManifestError, readSourceFile } from '../manifest';
import { startSession } from '../launch';
import type { Session } from '../runtime';
import { liveFormation } from '../runtime/tools/formation';
import { readFormation, FORMATION_FILE } from '../workspace';
import { createPublishedServing } from '../versions';
import { intOption, parseCommandArgs } from './args';
import { createShutdown } from '../shell/shutdown';
import { describeFileError, UserError } from './errors';
import { layout } from './home';
import { announceGateway, capsuleUrls, publicOriginOption, serveGateway } from './serve-gateway';
import { manageStudioToken, serveStudio } from './serve-studio';

// `capsule serve --workspace DIR`: headless. Launches every capsule of formation.yaml (one session
// each, doors on loopback) plus the gateway, prints the gateway URL and each exposed capsule's
// card; SIGINT/SIGTERM end every session and close the gateway. Exposures come from
// `capsule expose` (which edits the gateway's exposures.json; this process sees it at once).
// Once the workspace has a published version (`capsule publish`), the gateway serves that
// version, as the Studio's does, and follows each new publish (tasks running on the older
// version finish there); the formation's own sessions run the files on disk.

export const usage = `usage: capsule serve --workspace DIR | --capsule-url NAME=URL … [--gateway-port N] [--host H] [--public-origin URL] [--trust-proxy] [--data DIR]
  --workspace, -w   the workspace folder (holds formation.yaml)
  --studio          instead: a Studio core runs the formation, and Studios on other machines attach
                    to it over a WebSocket with a token (printed once; made on the first start)
  --studio-port     the port for attached Studios (default 0: the OS picks; printed)
  --studio-token    rotate | revoke: a new Studio token (printed once), or none; then exit
  --allow-host-commands  with --studio: attached Studios may also run commands on this host (harness
                    CLIs, shell allow lists) and use folders outside the workspace; without it they
                    work only inside the workspace
  --capsule-url     gateway only: serve a capsule whose door runs elsewhere, NAME=URL (repeat for
                    each; as on a cluster, where each capsule has its own Service); launches nothing
  --gateway-port    the gateway's port (default 0: the OS picks; printed)
  --host            interface the gateway binds (default 127.0.0.1; anything else is reachable from the network)
  --public-origin   the origin cards advertise behind a reverse proxy or tunnel (https://agents.example.com)
  --trust-proxy     believe X-Forwarded-Host/-Proto/-For (only behind a proxy you run)
  --data            gateway data folder (default $CAPSULE_HOME/gateway): exposures, access log, signing key`;

const options = {
  workspace: { type: 'string', short: 'w' },
  'capsule-url': { type: 'string', multiple: true },
  studio: { type: 'boolean' },
  'studio-port': { type: 'string' },
  'studio-token': { type: 'string' },
  'allow-host-commands': { type: 'boolean' },
  'gateway-port': { type: 'string' },
  host: { type: 'string' },
  'public-origin': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  data: { type: 'string' },
} as const;

/** formation.yaml's text; a folder or an unreadable file in its place is named, not a bare EISDIR. */
function readFormationFile(file: string): string {
  try {
    return readSourceFile(file);
  } catch (err) {
    throw new UserError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('serve', argv, options, usage);
  if (values['studio-token'] !== undefined) return manageStudioToken(values['studio-token']);
  if (values['allow-host-commands'] && !values.studio)
    throw new UserError('--allow-host-commands goes with --studio: it widens what attached Studios may do', 2);
  if (values['capsule-url']?.length) {
    if (values.workspace)
      throw new UserError('--capsule-url serves doors that run elsewhere; it does not go with --workspace', 2);
    return serveGateway(values, capsuleUrls(values['capsule-url']));
  }
  if (!values.workspace) throw new UserError(`serve needs --workspace or --capsule-url\n${usage}`, 2);
  if (values.studio) {
    // The Studio core runs its own gateway, configured from the attached Studio (Expose).
    const gatewayOnly = (['gateway-port', 'data', 'trust-proxy'] as const).filter((k) => values[k] !== undefined);
    if (gatewayOnly.length)
      throw new UserError(
        `--studio runs the Studio's own gateway (set it up from the attached Studio); ${gatewayOnly.map((k) => `--${k}`).join(', ')} does not apply`,
        2,
      );
    if (!existsSync(join(resolve(values.workspace), FORMATION_FILE)))
      throw new UserError(`${resolve(values.workspace)} has no ${FORMATION_FILE}`);
    return serveStudio(resolve(values.workspace), values, publicOriginOption(values['public-origin']));
  }
  const dir = resolve(values.workspace);
  const file = join(dir, FORMATION_FILE);
  if (!existsSync(file)) throw new UserError(`${dir} has no ${FORMATION_FILE}`);
  const formation = readFormation(readFormationFile(file));
  if (formation.issues.length)
    throw new UserError(
      `${file}: ${formation.issues.map((i) => `${i.line ? `line ${i.line}: ` : ''}${i.message}`).join('; ')}`,
    );
  const port = intOption('gateway-port', values['gateway-port'], 65535);
  const publicOrigin = publicOriginOption(values['public-origin']);
  const host = values.host ?? '127.0.0.1';
  const dataDir = resolve(values.data ?? gatewayDataDir(layout().home));

  const sessions = new Map<string, Session>();
  const members = () =>
    formation.capsules.map((c) => ({
      names: [c.id],
      manifestPath: resolve(dir, c.manifest),
      ...(sessions.get(c.id) ? { session: sessions.get(c.id)! } : {}),
    }));
  let stopping = false;
  const published = createPublishedServing({ dataDir: join(layout().home, 'published'), startSession });
  const stopAll = () => {
    stopping = true;
    return Promise.all([
      ...[...sessions.values()].map((s) => s.end('stopped').catch(() => undefined)),
      published.dispose(),
    ]);
  };
  let announced: { close(): Promise<void> } | undefined;

  // Ctrl-C or SIGTERM: the gateway closes and every session ends cleanly; a second one forces it.
  // The signals are ours from the first launch on: a formation takes a while to come up, and a
  // Ctrl-C meanwhile must end the capsules already launched, not leave them without session_end.
  let launch: Promise<void> = Promise.resolve();
  let exit!: (code: number) => void;
  const exited = new Promise<number>((r) => (exit = r));
  const shutdown = createShutdown({
    async stop() {
      stopping = true; // no capsule launches after this one
      await launch.catch(() => undefined);
      await announced?.close();
      await stopAll();
    },
    exit,
    log: (line) => process.stderr.write(`capsule: ${line === 'stopped' ? `stopped (${dirname(file)})` : line}\n`),
    running: () => sessions.size,
  });
  const offSignals = shutdown.handleSignals();

  launch = (async () => {
    for (const c of formation.capsules) {
      if (stopping) return;
      const manifestPath = resolve(dir, c.manifest);
      let s: Session;
      try {
        s = await startSession({
          manifestPath,
          formation: liveFormation(() => members().filter((m) => m.names[0] !== c.id)),
        });
      } catch (err) {
        const detail =
          err instanceof ManifestError
            ? `\n${formatIssues(err.issues)}`
            : `: ${describeFileError(err, layout().home) ?? (err as Error).message}`;
        throw new UserError(`cannot launch ${c.id} (${c.manifest})${detail}`);
      }
      sessions.set(c.id, s);
      // One session may end on its own (capsule stop, after_task: exit, idle timeout): the others,
      // and the gateway, keep running; the gateway no longer routes to the ended one.
      void s.ended.then((reason) => {
        if (sessions.get(c.id) !== s) return;
        sessions.delete(c.id);
        if (!stopping) process.stderr.write(`capsule: ${c.id} session ${s.id} ended (${reason})\n`);
      });
      process.stdout.write(`capsule: ${c.id} ${s.url} (session ${s.id})\n`);
    }
    if (stopping) return;

    const fromRun = runningResolver(layout().running);
    const gateway = await createGateway({
      host,
      ...(port !== undefined ? { port } : {}),
      ...(publicOrigin ? { publicOrigin } : {}),
      trustProxy: values['trust-proxy'] ?? false,
      dataDir,
      resolveCapsule: (name) => {
        // A session started with `capsule run` and exposed by name is served too.
        if (!formation.capsules.some((c) => c.id === name)) return fromRun(name);
        return published.resolve(dir, name, () => {
          const s = sessions.get(name);
          return s && sessionCapsule(s);
        });
      },
    }).catch((err: Error) => {
      throw new UserError(`the gateway cannot listen on ${host}:${port ?? 0}: ${err.message}`);
    });
    announced = announceGateway(gateway, host, dataDir, () => {
      for (const c of formation.capsules) {
        const exposed = gateway.exposures.get(c.id);
        process.stdout.write(
          exposed
            ? `exposed: ${c.id} ${gateway.urlsOf(c.id).card} (MCP: ${gateway.urlsOf(c.id).mcp})\n`
            : `not exposed: ${c.id} (capsule expose ${c.id} --data ${dataDir})\n`,
        );
      }
    });
  })();

  try {
    await launch;
  } catch (err) {
    // A launch that fails while a shutdown runs is that shutdown's business (it waits for this).
    if (shutdown.state !== 'running') return exited;
    offSignals();
    await stopAll();
    throw err;
  }
  return exited;
}
