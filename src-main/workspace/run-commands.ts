import { CoreError, type StopSessionAnswer } from '../../src-shared/contract';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';
import { readTraceSlice } from './trace-tail';
import { manifestProblem } from './manifest-view';
import { capsuleView } from './view';
import { waitUntilIdle } from './restart';
import { stopTasks, taskHandlers } from './task-commands';

// Handlers that run the formation and talk to its sessions. The core reaches a running capsule
// through its door's method table, in process (task-commands.ts); the renderer never reaches a door.

function launchOrder(ctx: StudioContext): string[] {
  // Workers first: an orchestrator's first task may delegate at once.
  const caps = ctx.workspace().snapshot().capsules;
  const rank = (r: string | null) => (r === 'orchestrator' ? 1 : 0);
  return [...caps].sort((a, b) => rank(a.summary.role) - rank(b.summary.role)).map((c) => c.id);
}

export function runHandlers(
  ctx: StudioContext,
): Pick<
  Handlers,
  | 'capsule.launch'
  | 'capsule.stop'
  | 'capsule.restart'
  | 'formation.launch'
  | 'formation.stop'
  | 'task.send'
  | 'task.checkData'
  | 'task.get'
  | 'task.list'
  | 'task.cancel'
  | 'session.stop'
  | 'session.cancelAll'
  | 'trace.tail'
  | 'shell.openExternal'
> {
  /** Refuses with `manifest_invalid` (naming the file, line and field) when the saved manifest does not load. */
  const mustLoad = (id: string, verb: string, after = '') => {
    const c = ctx.workspace().capsule(id);
    const problem = manifestProblem(c.manifestPath, c.summary.issues);
    if (problem) throw new CoreError('manifest_invalid', `Cannot ${verb} ${c.summary.name ?? id}: ${problem}${after}`);
  };
  const launch = async (id: string) => {
    mustLoad(id, 'launch');
    const c = ctx.workspace().capsule(id);
    await ctx.sessions.launch(id, c.file);
    // A relaunch on another port moves the allow entries that named the old one (live-edits.ts).
    ctx.changed();
    return capsuleView(ctx.workspace().capsule(id), ctx.sessions.status(id));
  };
  return {
    'capsule.launch': ({ id }) => launch(id),
    async 'capsule.stop'({ id }) {
      ctx.workspace().capsule(id);
      await ctx.sessions.stop(id);
      ctx.changed();
    },
    async 'capsule.restart'({ id, when }) {
      // A manifest that does not load is never applied: the healthy session is left running, and
      // the check is made again after waiting, since the file may have been edited meanwhile.
      const keep = '. The running session was left as it is; fix the manifest, then restart.';
      mustLoad(id, 'restart', keep);
      const session = ctx.sessions.session(id);
      if (when === 'idle') await waitUntilIdle(session);
      mustLoad(id, 'restart', keep);
      await ctx.sessions.stop(id);
      return launch(id);
    },
    async 'formation.launch'() {
      const launched: string[] = [];
      const failed: { id: string; message: string }[] = [];
      for (const id of launchOrder(ctx)) {
        if (ctx.sessions.status(id).url) continue;
        try {
          await launch(id);
          launched.push(id);
        } catch (err) {
          failed.push({ id, message: (err as Error).message });
        }
      }
      if (failed.length)
        ctx.emit('notice.raised', { level: 'error', message: failed.map((f) => f.message).join('\n') });
      return { launched, failed };
    },
    async 'formation.stop'() {
      const stopped = ctx.sessions.running();
      await Promise.all(stopped.map((id) => ctx.sessions.stop(id)));
      return { stopped };
    },
    ...taskHandlers(ctx), // send, checkData, get, list, cancel: the door's methods, in process
    async 'session.stop'({ capsuleId }): Promise<StopSessionAnswer> {
      // What is canceled and left behind is read while the session can answer; then the Studio,
      // which hosts the session, ends it: session_end, door closed, node Stopped.
      const session = ctx.sessions.session(capsuleId);
      let answer: Omit<StopSessionAnswer, 'ended'> | undefined;
      let failure: unknown;
      try {
        answer = await stopTasks(session);
      } catch (err) {
        failure = err;
      }
      await ctx.sessions.stop(capsuleId);
      if (!answer) throw failure;
      return { ...answer, ended: true };
    },
    'session.cancelAll': async ({ capsuleId }) => ({
      ...(await stopTasks(ctx.sessions.session(capsuleId))),
      ended: false,
    }),
    async 'trace.tail'({ sessionId, after, last, limit }) {
      const running = ctx.sessions.bySessionId(sessionId);
      if (running) await running.session.trace.flush();
      return readTraceSlice(ctx.config.recordsRoot!, sessionId, running?.session.workdir, {
        after,
        last,
        limit: limit ?? 2000,
      });
    },
    async 'shell.openExternal'({ url }) {
      if (!/^https?:\/\//i.test(url))
        throw new CoreError('invalid_input', 'Only http and https links open outside the Studio.');
      if (!ctx.ports.openExternal) throw new CoreError('invalid_input', `Open ${url} in your browser.`);
      await ctx.ports.openExternal(url);
    },
  };
}
