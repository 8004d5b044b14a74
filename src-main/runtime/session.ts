import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { durationMs, servedMethods, servesMethod, type Manifest } from '../../src-shared/manifest';
import { newSessionId } from '../../src-shared/ids';
import { loadManifestFile, ManifestError } from '../manifest';
import { createTraceWriter, processStart } from '../trace';
import { forkedFromLine, priceUsd } from '../drivers';
import type { Session, SessionDoorFactory, SessionOptions } from './api';
import { executorFactoryFor } from './executors';
import { createSessionTasks } from './session-tasks';
import { recordsLayout, removeRunningRecord, writeRunningRecord } from './layout';
import { requestInputTool } from './request-input';
import { closeDoor, listenDoor } from './listen';
import { createSessionToolkit } from './tools';
import { finishedTasksOf } from './task-records';
import { applyPolicy } from './policy';

// startSession: manifest, records folder and trace, executor, task machinery, door, running file.
// The door is built by the caller's factory (the launcher hands in the A2A door): the runtime
// only listens on it and closes it, so it never imports the layer that serves it.

function loadManifest(
  opts: SessionOptions,
  env: Record<string, string | undefined>,
): { manifest: Manifest; secrets: string[] } {
  if (opts.manifest) return { manifest: opts.manifest, secrets: [] };
  const loaded = loadManifestFile(opts.manifestPath, env);
  if (!loaded.ok) throw new ManifestError(loaded.issues);
  return { manifest: loaded.manifest, secrets: loaded.secrets };
}

export async function startSession(opts: SessionOptions, openDoor: SessionDoorFactory): Promise<Session> {
  const env = opts.env ?? process.env;
  const { manifest, secrets: interpolated } = loadManifest(opts, env);
  const keys = manifest.artifacts.map((a) => a.gateway?.api_key).filter((k): k is string => !!k);
  const secrets = [...new Set([...interpolated, ...(opts.secrets ?? []), ...keys])];
  // delegate_task and shell (runtime/tools) beside the caller's tools; their shell
  // commands are session-level work (StopSession residue, killed at the session's end).
  const toolkit = createSessionToolkit({
    manifest,
    manifestPath: opts.manifestPath,
    workdir: () => workdir,
    formation: opts.formation,
    startChild: (child) => startSession(child, openDoor),
    secrets,
    env,
    extra: opts.tools,
  });
  const executor = executorFactoryFor(manifest)({
    manifest,
    env,
    secrets,
    tools: [...toolkit.tools, requestInputTool],
    ...(toolkit.moreTools ? { moreTools: toolkit.moreTools } : {}),
    priceUsd,
    ...(opts.fork ? { fork: opts.fork } : {}),
  });

  const layout = recordsLayout(env);
  const id = opts.resume?.sessionId ?? newSessionId();
  const workdir = opts.resume
    ? opts.resume.workdir
    : opts.parent
      ? join(opts.parent.workdir, 'children', `${manifest.name}-${randomBytes(8).toString('hex')}`)
      : join(opts.recordsRoot ?? layout.records, id);
  const previous = opts.resume ? await finishedTasksOf(join(workdir, 'trace.jsonl'), id) : [];
  const trace = createTraceWriter(join(workdir, 'trace.jsonl'), id, secrets);
  const tasks = createSessionTasks({
    sessionId: id,
    manifest,
    trace,
    executor,
    secrets,
    inputTimeoutMs: durationMs(manifest.inference.input_timeout, 600_000),
  });
  tasks.restore(previous);

  let url = '';
  let port = 0;
  const running = { file: undefined as string | undefined };
  let ending: Promise<void> | undefined;
  let finished = false;
  let resolveEnded!: (reason: string) => void;
  const ended = new Promise<string>((r) => (resolveEnded = r));
  const startedAt = Date.now();
  const served = servedMethods(manifest.exports?.methods);

  const session: Session = {
    id,
    get url() {
      return url;
    },
    get port() {
      return port;
    },
    manifest,
    manifestPath: resolve(opts.manifestPath),
    workdir,
    trace,
    startedAt,
    status: () => {
      const st = tasks.status();
      return ending ? { ...st, state: finished ? 'ended' : 'stopping' } : st;
    },
    peekTask: tasks.peekTask,
    taskState: tasks.taskState,
    readTask: tasks.readTask,
    listTasks: tasks.listTasks,
    acceptMessage: tasks.acceptMessage,
    onTaskEvent: tasks.onTaskEvent,
    cancelTask: tasks.cancelTask,
    serves: (method) => servesMethod(served, method),
    stopSession: async () => toolkit.withResidue(await tasks.stopSession()),
    updatePolicy: (policy) => applyPolicy(manifest, policy, trace),
    setBreakpoints: tasks.setBreakpoints,
    resumeBreakpoint: tasks.resumeBreakpoint,
    end: (reason = 'stopped') => (ending ??= endSession(reason)),
    ended,
  };

  const door = openDoor(session);
  async function endSession(reason: string): Promise<void> {
    tasks.markEnded();
    await tasks.stopForEnd();
    await toolkit.dispose();
    // session_end goes out while the door is still open, so WatchSession streams carry it.
    const totals = tasks.status();
    trace.append({
      event_type: 'session_end',
      reason,
      tasks: tasks.count(),
      tokens_in: totals.tokensIn,
      tokens_out: totals.tokensOut,
    });
    await closeDoor(door);
    if (running.file) removeRunningRecord(running.file);
    await executor.dispose?.();
    await trace.close();
    finished = true;
    resolveEnded(reason);
  }
  tasks.onLifecycleEnd((reason) => void session.end(reason));

  try {
    port = await listenDoor(door, opts, manifest);
  } catch (err) {
    await trace.close();
    await toolkit.dispose();
    await executor.dispose?.();
    if (!opts.parent && !opts.resume) rmSync(workdir, { recursive: true, force: true });
    throw err;
  }
  const host = opts.host ?? '127.0.0.1';
  url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  trace.append({
    event_type: 'session_start',
    capsule: manifest.name,
    version: manifest.version,
    url,
    manifest_path: session.manifestPath,
    driver: manifest.inference.driver.artifact,
    model: manifest.inference.model,
    pid: process.pid,
    workdir,
    ...(opts.parent ? { parent_session_id: opts.parent.sessionId } : {}),
    ...(opts.resume ? { resumed: true, restored_tasks: previous.length } : {}),
    ...(opts.fork ? { forked_from: forkedFromLine(opts.fork) } : {}),
  });
  const pidStart = processStart(process.pid);
  running.file = writeRunningRecord(layout.running, {
    session_id: id,
    name: manifest.name,
    version: manifest.version,
    url,
    pid: process.pid,
    manifest_path: session.manifestPath,
    workdir,
    started_at: new Date(startedAt).toISOString(),
    ...(opts.parent ? { parent_session_id: opts.parent.sessionId } : {}),
    ...(opts.ownsProcess ? { owns_process: true } : {}),
    ...(pidStart ? { pid_start: pidStart } : {}),
  });
  // MCP servers start connecting once the trace has the session's start (their lines follow it).
  toolkit.start((event) => trace.append(event));
  tasks.start();
  return session;
}
