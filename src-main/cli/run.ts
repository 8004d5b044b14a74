import { dirname, resolve } from 'node:path';
import { formatIssues, loadManifestFile, ManifestError } from '../manifest';
import { startSession } from '../launch';
import type { Session } from '../runtime';
import { intOption, parseCommandArgs } from './args';
import { createShutdown } from '../shell/shutdown';
import { describeFileError, UserError } from './errors';
import { layout, openStore } from './home';
import { resolveRecordedSession, listRunningSessions } from '../trace';
import { recordsLayout } from '../runtime/layout';
import { cliEnv, explainMissingSecrets } from './secrets-env';
import { staticFormation, type FormationResolver, type FormationTarget } from '../runtime/tools/formation';
import { RECORDED_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';

/** The recorded session `capsule run --resume` continues; refuses one that is still running. */
function resumeTarget(address: string, records?: string): { sessionId: string; workdir: string } {
  const { store, records: dir } = openStore(records);
  try {
    store.syncRecords(dir);
    const s = resolveRecordedSession(address, store);
    if (!s.tracePath) throw new UserError(`session ${s.id} has no trace file to resume`);
    if (listRunningSessions(recordsLayout(process.env).running).some((r) => r.id === s.id)) {
      throw new UserError(`session ${s.id} is still running; stop it first (capsule stop ${s.id.slice(-4)})`);
    }
    return { sessionId: s.id, workdir: dirname(s.tracePath) };
  } finally {
    store.dispose();
  }
}

/** `--peer NAME=URL` options as the formation delegate_task resolves names in. */
export function peerTable(texts: string[]): FormationResolver | undefined {
  if (!texts.length) return undefined;
  const targets: Record<string, FormationTarget> = {};
  for (const text of texts) {
    const at = text.indexOf('=');
    const name = text.slice(0, at);
    const url = text.slice(at + 1);
    if (at < 1 || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new UserError(`--peer takes NAME=http(s)://host:port, not "${text}"`, 2);
    targets[name] = { kind: 'door', url, capsule: name };
  }
  return staticFormation(targets);
}

// `capsule run`: starts a session and stays in the foreground until it ends, by a signal
// (SIGINT/SIGTERM end it cleanly) or by itself (after_task: exit, idle timeout).

export const usage = `usage: capsule run --manifest <file> [--port N] [--host H] [--peer NAME=URL …] [--records DIR] [--resume <session>]
  --manifest, -m  the capsule manifest (murmur.yaml)
  --port, -p      the door's port (overrides network.internal_port; 0 lets the OS pick)
  --host          interface the door binds (default 127.0.0.1; 0.0.0.0 in a container, where a
                  Service reaches it; anything but loopback is reachable from the network)
  --peer          a capsule delegate_task may name, and its door: NAME=URL (repeat for each);
                  the allow list still decides whether the capsule may reach it
  --records       records root (default $CAPSULE_HOME/records)
  --resume        continue a recorded session (${RECORDED_ADDRESS_HELP}): same id and
                  records; the tasks it finished stay answerable with GetTask
Prints "capsule: url <url>" and "session: <id>" first, then runs until Ctrl-C or SIGTERM.
${ADDRESS_RULE_HELP}`;

const options = {
  manifest: { type: 'string', short: 'm' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  peer: { type: 'string', multiple: true },
  records: { type: 'string' },
  resume: { type: 'string' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', argv, options, usage);
  const file = values.manifest ?? positionals[0];
  if (!file) throw new UserError(`run needs a manifest\n${usage}`, 2);
  const port = intOption('port', values.port, 65535);
  const peers = peerTable(values.peer ?? []);
  const manifestPath = resolve(file);
  const loaded = loadManifestFile(manifestPath, cliEnv());
  if (!loaded.ok) {
    process.stderr.write(
      `${formatIssues(explainMissingSecrets(loaded.issues))}\ncapsule: ${file} has ${loaded.issues.length} problem${loaded.issues.length === 1 ? '' : 's'}; the capsule did not start\n`,
    );
    return 1;
  }

  const resume = values.resume ? resumeTarget(values.resume, values.records) : undefined;
  let session: Session;
  try {
    session = await startSession({
      ...(resume ? { resume } : {}),
      manifestPath,
      manifest: loaded.manifest,
      secrets: loaded.secrets,
      ownsProcess: true,
      ...(port !== undefined ? { port } : {}),
      ...(values.host ? { host: values.host } : {}),
      ...(peers ? { formation: peers } : {}),
      ...(values.records ? { recordsRoot: resolve(values.records) } : {}),
    });
  } catch (err) {
    if (err instanceof ManifestError) {
      process.stderr.write(`${formatIssues(err.issues)}\n`);
      return 1;
    }
    throw new UserError(describeFileError(err, layout().home) ?? (err as Error).message);
  }

  if (values.host && !['127.0.0.1', 'localhost', '::1'].includes(values.host))
    process.stderr.write(`capsule: warning: the door binds ${values.host}: other machines can reach it\n`);

  // Ctrl-C or SIGTERM ends the session cleanly (a second one forces the exit); the session may
  // also end by itself (after_task: exit, idle timeout, capsule stop).
  const s = session;
  return new Promise<number>((exit) => {
    const shutdown = createShutdown({
      stop: () => s.end('stopped'),
      exit,
      log: (line) => line !== 'stopped' && process.stderr.write(`capsule: ${line}\n`),
      running: () => 1,
    });
    const off = shutdown.handleSignals();
    // Only now the two lines: a script may signal the process the moment it has read them.
    process.stdout.write(`capsule: url ${s.url}\nsession: ${s.id}\n`);
    void s.ended.then((reason) => {
      process.stderr.write(`capsule: session ${s.id} ended (${reason}); records in ${s.workdir}\n`);
      if (shutdown.state !== 'done') {
        off();
        exit(0);
      }
    });
  });
}
