import { CoreError, type ResidueView } from '../../src-shared/contract';
import type { StudioContext } from './context';
import * as door from './door-client';
import type { Handlers } from './handlers';
import { readTraceSlice } from './trace-tail';
import { capsuleView } from './view';
import { waitUntilIdle } from './restart';

// Handlers that run the formation and talk to its doors.

function launchOrder(ctx: StudioContext): string[] {
  // Workers first: an orchestrator's first task may delegate at once.
  const caps = ctx.workspace().snapshot().capsules;
  const rank = (r: string | null) => (r === 'orchestrator' ? 1 : 0);
  return [...caps].sort((a, b) => rank(a.summary.role) - rank(b.summary.role)).map((c) => c.id);
}

function runningUrl(ctx: StudioContext, id: string): string {
  const c = ctx.workspace().capsule(id);
  return ctx.sessions.session(id, c.summary.name ?? id).url;
}

export function runHandlers(ctx: StudioContext): Pick<
  Handlers,
  'capsule.launch' | 'capsule.stop' | 'capsule.restart' | 'formation.launch' | 'formation.stop' | 'task.send' | 'task.get' | 'task.list' | 'task.cancel' | 'session.stop' | 'trace.tail' | 'shell.openExternal'
> {
  const launch = async (id: string) => {
    const c = ctx.workspace().capsule(id);
    if (c.summary.issues.length) {
      const first = c.summary.issues[0];
      throw new CoreError('manifest_invalid', `Cannot launch ${c.summary.name ?? id}: ${c.manifestPath}${first.line ? `:${first.line}` : ''}: ${first.path ? `${first.path}: ` : ''}${first.message}`);
    }
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
      ctx.workspace().capsule(id);
      const session = ctx.sessions.session(id);
      if (when === 'idle') await waitUntilIdle(session);
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
      if (failed.length) ctx.emit('notice.raised', { level: 'error', message: failed.map((f) => f.message).join('\n') });
      return { launched, failed };
    },
    async 'formation.stop'() {
      const stopped = ctx.sessions.running();
      await Promise.all(stopped.map((id) => ctx.sessions.stop(id)));
      return { stopped };
    },
    'task.send': ({ capsuleId, text, contextId, returnImmediately }) => door.sendText(runningUrl(ctx, capsuleId), text, contextId, returnImmediately ?? false),
    'task.get': ({ capsuleId, taskId, historyLength }) => door.getTask(runningUrl(ctx, capsuleId), taskId, historyLength),
    'task.list'({ capsuleId }) {
      ctx.workspace().capsule(capsuleId);
      return ctx.sessions.session(capsuleId).listTasks();
    },
    'task.cancel': ({ capsuleId, taskId }) => door.cancelTask(runningUrl(ctx, capsuleId), taskId),
    async 'session.stop'({ capsuleId }) {
      const answer = await door.stopSession(runningUrl(ctx, capsuleId));
      return { session_id: answer.session_id, canceled: answer.canceled ?? [], residue: (answer.residue ?? []) as ResidueView[] };
    },
    'trace.tail'({ sessionId, after, last, limit }) {
      const running = ctx.sessions.bySessionId(sessionId);
      if (running) running.session.trace.flush();
      return readTraceSlice(ctx.config.recordsRoot!, sessionId, running?.session.workdir, { after, last, limit: limit ?? 2000 });
    },
    async 'shell.openExternal'({ url }) {
      if (!/^https?:\/\//i.test(url)) throw new CoreError('invalid_input', 'Only http and https links open outside the Studio.');
      if (!ctx.ports.openExternal) throw new CoreError('invalid_input', `Open ${url} in your browser.`);
      await ctx.ports.openExternal(url);
    },
  };
}
