import { dirname, join } from 'node:path';
import { CoreError, type SessionItemView, type SessionTaskView } from '../../src-shared/contract';
import { liveSinceOfAsync, taskInterrupted, type SearchHit, type SessionSummary, type TaskSummary } from '../trace';
import { snippetOf } from '../../src-shared/trace';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';
import { fallbackEvents, fallbackSessions } from './traces-fallback';
import { createTraceIndexAccess, type TraceIndexAccess } from './traces-index';
import { taskTraceFromFile, taskTraceFromIndex } from './traces-task';
import { timelineBars } from './traces-timeline';
import { replayRecordedRun } from './replay-command';
import { rehearsalOfSession, saveWorkspaceRehearsal } from './rehearse-command';
import type { Rehearsal } from '../recording';

// The sessions browser and the timeline, answered from the trace store. The store is
// opened once, next to the records folder (the CLI's studio.db when the records are the capsule
// home's), and kept up to date by the index worker (traces-index.ts). Where SQLite cannot open (an
// Electron build without a matching native module), the answers come from the files, slower, and
// say so.

const MAX_TASKS = 1000;

export type TraceHandlers = Pick<
  Handlers,
  | 'sessions.list'
  | 'sessions.get'
  | 'sessions.events'
  | 'sessions.taskTrace'
  | 'sessions.timeline'
  | 'sessions.rehearse'
  | 'sessions.replay'
>;

export interface TracesService {
  handlers: TraceHandlers;
  /** The index and records root, for the fork commands beside these (fork-command.ts). */
  index: TraceIndexAccess;
  recordsRoot: string;
  /** A recorded session as a rehearsal (every capsule that took part), for "Make rehearsal" and "Save as test". */
  rehearsalOf(sessionId: string, speed?: number): Promise<Rehearsal>;
  dispose(): Promise<void>;
}

function taskView(t: TaskSummary, sessionLive: boolean, liveSince: number | null): SessionTaskView {
  return {
    id: t.id,
    ord: t.ord,
    state: t.state,
    interrupted: taskInterrupted(t, sessionLive, liveSince),
    text: t.text,
    answer: t.answer,
    failure: t.failure,
    turns: t.turns,
    tokensIn: t.tokensIn,
    tokensOut: t.tokensOut,
    startedAt: t.receivedAt ?? t.startedAt,
    endedAt: t.endedAt,
    durationMs: t.durationMs,
  };
}

export function sessionItem(s: SessionSummary, capsuleId?: string): SessionItemView {
  return {
    id: s.id,
    capsule: s.capsule,
    ...(capsuleId ? { capsuleId } : {}),
    status: s.status,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    endReason: s.endReason,
    driver: s.driver,
    model: s.model,
    parentId: s.parentId,
    forkedFrom: s.forkedFrom,
    tasks: s.tasks,
    tokensIn: s.tokensIn,
    tokensOut: s.tokensOut,
    events: s.events,
    // What the index could not read of the trace: the sessions browser says so above the events.
    ...(s.badLines + s.deepLines + s.longLines + s.foreignLines > 0
      ? { skipped: { bad: s.badLines, deep: s.deepLines, long: s.longLines, foreign: s.foreignLines } }
      : {}),
  };
}

/** Lines a search reads for the sessions' snippets (newest first; an older session past them lists without one). */
const SEARCH_HITS = 500;

/** Each session's newest matching line, as the snippet the list shows. */
function matchesOf(hits: SearchHit[], search: string): Map<string, NonNullable<SessionItemView['match']>> {
  const out = new Map<string, NonNullable<SessionItemView['match']>>();
  for (const h of hits) {
    if (out.has(h.sessionId)) continue;
    out.set(h.sessionId, {
      taskId: h.taskId,
      seq: h.seq,
      type: h.type,
      text: snippetOf(h.text, search)
        .map((p) => p.text)
        .join(''),
    });
  }
  return out;
}

export function createTracesService(ctx: StudioContext, opts: { dbPath?: string } = {}): TracesService {
  const recordsRoot = ctx.config.recordsRoot ?? join(ctx.config.userDataDir, 'records');
  const index = createTraceIndexAccess(ctx, recordsRoot, opts.dbPath ?? join(dirname(recordsRoot), 'studio.db'));
  const capsuleOf = (sessionId: string) => ctx.sessions.bySessionId(sessionId);
  const rehearsalOf = async (sessionId: string, speed = 1): Promise<Rehearsal> => {
    const s = index.open();
    const found = s ? await index.refresh(s, sessionId).catch(() => undefined) : undefined;
    return rehearsalOfSession(
      recordsRoot,
      sessionId,
      found?.tracePath ?? capsuleOf(sessionId)?.session.trace.path,
      speed,
    );
  };

  const handlers: TraceHandlers = {
    async 'sessions.list'(q, call) {
      const s = index.open();
      if (!s) return { sessions: fallbackSessions(recordsRoot, q, capsuleOf), store: index.state() };
      await index.sync(call?.signal);
      const search = q.search?.trim() || undefined;
      const rows = s.listSessions({
        capsule: q.capsule,
        status: q.state,
        since: q.since,
        until: q.until,
        search,
        limit: q.limit ?? 500,
      });
      const matches = search ? matchesOf(await s.search(search, { limit: SEARCH_HITS }), search) : undefined;
      return {
        sessions: rows.map((r) => ({
          ...sessionItem(r, capsuleOf(r.id)?.id),
          ...(matches?.has(r.id) ? { match: matches.get(r.id) } : {}),
        })),
        store: index.state(),
      };
    },
    async 'sessions.get'({ sessionId }, call) {
      const s = index.open();
      if (!s) {
        const session = fallbackSessions(recordsRoot, {}, capsuleOf).find((x) => x.id === sessionId);
        if (!session) throw new CoreError('not_found', `No recorded session ${sessionId}.`);
        return { session, tasks: [], store: index.state() };
      }
      const found = await index.refresh(s, sessionId, call?.signal);
      // A session of 100k tasks opens on its first ones: the task picker lists at most MAX_TASKS.
      const live = found.status === 'running';
      const liveSince = await liveSinceOfAsync(s, found);
      const tasks = s.listTasks(sessionId, { limit: MAX_TASKS }).map((t) => taskView(t, live, liveSince));
      return { session: sessionItem(found, capsuleOf(sessionId)?.id), tasks, store: index.state() };
    },
    async 'sessions.events'(q, call) {
      const s = index.open();
      const limit = q.limit ?? 200;
      const filtered = !!q.task || !!q.types?.length;
      // seq counts indexed lines from 0 without gaps, so an unfiltered offset is a cursor.
      const after = q.after ?? (q.offset && !filtered ? q.offset - 1 : undefined);
      if (!s)
        return {
          ...(await fallbackEvents(
            recordsRoot,
            q.sessionId,
            capsuleOf(q.sessionId)?.session.trace.path,
            after ?? -1,
            limit,
          )),
          store: index.state(),
        };
      const found = await index.refresh(s, q.sessionId, call?.signal);
      const page = await s.eventsAsync(q.sessionId, { task: q.task, types: q.types, afterSeq: after, limit });
      return { events: page.events, next: page.nextSeq, total: filtered ? null : found.events, store: index.state() };
    },
    async 'sessions.taskTrace'({ sessionId, taskId }) {
      const s = index.open();
      if (!s)
        return taskTraceFromFile(
          recordsRoot,
          sessionId,
          capsuleOf(sessionId)?.session.trace.path,
          taskId,
          index.state(),
        );
      return taskTraceFromIndex(index, s, sessionId, taskId);
    },
    async 'sessions.timeline'(q, call) {
      const s = index.open();
      if (!s) return { bars: [], store: index.state() };
      await index.sync(call?.signal);
      let ids = q.sessionIds ?? [];
      let window: [number, number] | undefined;
      if (q.around) {
        const center = await index.refresh(s, q.around, call?.signal);
        const endOf = (o: SessionSummary) =>
          o.status === 'running' ? Date.now() : (o.endedAt ?? o.lastTs ?? Date.now());
        const from = center.startedAt ?? 0;
        const to = endOf(center);
        // Sessions that were alive while this one ran (the formation it talked to).
        // The session itself first: when bars run out, its own tasks are the ones drawn.
        ids = [
          center.id,
          ...s
            .listSessions({ limit: 500 })
            .filter((o) => o.id !== center.id && (o.startedAt ?? 0) <= to && endOf(o) >= from)
            .slice(0, 49)
            .map((o) => o.id),
        ];
        window = [from, to];
      }
      if (!ids.length) throw new CoreError('invalid_input', 'sessions.timeline: give sessionIds or around.');
      // Workers live for hours: around a session, only their tasks that ran while it did.
      const drawn = await timelineBars(s, ids);
      const bars = drawn.bars.filter((b) => !window || (b.end >= window[0] && b.start <= window[1]));
      return { bars, store: index.state(), ...(drawn.truncated.length ? { truncated: drawn.truncated } : {}) };
    },
    async 'sessions.rehearse'({ sessionId, speed }) {
      return saveWorkspaceRehearsal(ctx, sessionId, await rehearsalOf(sessionId, speed));
    },
    async 'sessions.replay'({ sessionId, taskId }) {
      const s = index.open();
      const found = s ? await index.refresh(s, sessionId).catch(() => undefined) : undefined;
      return replayRecordedRun(
        recordsRoot,
        sessionId,
        found?.tracePath ?? capsuleOf(sessionId)?.session.trace.path,
        taskId,
      );
    },
  };

  return { handlers, index, recordsRoot, rehearsalOf, dispose: () => index.dispose() };
}
