import { CoreError } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import { runLong, SHOW_LONG_AFTER_MS } from './longCommand';
import type { SliceCreator } from './types';
import type { SESSIONS_ACTIONS, SessionsSlice } from './state/sessions';

// The sessions browser's reading: lists, pages of a session's lines, the timeline, rehearsals.
// Loaded on the first call (sessionsSlice.ts names them). Each load is a long command: one that
// takes a while (a first index of big traces) shows in the bar, and Esc stops it; the browser
// then says so and keeps what it showed.

const PAGE = 500;
let listSeq = 0;
/** Stops the list load in flight: a newer filter replaces it. */
let stopListLoad = () => {};

const canceled = (err: unknown) => (err as { code?: string }).code === 'canceled';

/** A load as a long command; canceled, it rejects saying what stopped ("Stopped reading the sessions."). */
const long = async <T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
  try {
    return await runLong(label, work, { showAfterMs: SHOW_LONG_AFTER_MS });
  } catch (err) {
    if (canceled(err)) throw new CoreError('canceled', `Stopped ${label[0].toLowerCase()}${label.slice(1)}.`);
    throw err;
  }
};

export const createSessionsActions: SliceCreator<Pick<SessionsSlice, (typeof SESSIONS_ACTIONS)[number]>> = (
  set,
  get,
) => {
  const fail = (what: string, err: unknown) =>
    canceled(err)
      ? get().notify('info', (err as Error).message)
      : get().notify('error', `${what}: ${describeError(err)}`);
  const fetchEvents = async (sessionId: string, task: string | null, after?: number) =>
    long('Reading the events', (signal) =>
      invoke(
        'sessions.events',
        { sessionId, limit: PAGE, ...(task ? { task } : {}), ...(after !== undefined ? { after } : {}) },
        { signal },
      ),
    );
  /** Lines are numbered without gaps, so an unfiltered window is fetched by offset. */
  const fetchWindow = (sessionId: string, offset: number, limit = PAGE) =>
    long('Reading the events', (signal) => invoke('sessions.events', { sessionId, offset, limit }, { signal }));
  let jumps = 0;

  return {
    async loadSessions() {
      const f = get().sessionFilter;
      const seq = ++listSeq;
      set({ sessionsLoading: true });
      try {
        const input = {
          ...(f.runtime ? { runtime: f.runtime } : {}),
          ...(f.capsule ? { capsule: f.capsule } : {}),
          ...(f.state ? { state: f.state } : {}),
          ...(f.since !== null ? { since: f.since } : {}),
          ...(f.until !== null ? { until: f.until } : {}),
          ...(f.search.trim() ? { search: f.search.trim() } : {}),
        };
        stopListLoad();
        const replaced = new AbortController();
        stopListLoad = () => replaced.abort();
        const r = await long('Reading the sessions', (signal) =>
          invoke('sessions.list', input, { signal: AbortSignal.any([signal, replaced.signal]) }),
        );
        // A slower answer to an older filter never overwrites a newer one.
        if (seq === listSeq) set({ sessionList: r.sessions, traceStore: r.store, sessionsLoading: false });
      } catch (err) {
        // A load a newer filter replaced says nothing: the newer one answers.
        if (seq !== listSeq) return;
        set({ sessionsLoading: false });
        fail('Could not list sessions', err);
      }
    },
    async openSession(sessionId) {
      try {
        const [detail, page] = await long('Opening the session', (signal) =>
          Promise.all([
            invoke('sessions.get', { sessionId }, { signal }),
            invoke('sessions.events', { sessionId, limit: PAGE }, { signal }),
          ]),
        );
        set({
          openedSession: {
            session: detail.session,
            tasks: detail.tasks,
            task: null,
            events: page.events,
            next: page.next,
            total: page.total,
            loading: false,
          },
        });
      } catch (err) {
        fail('Could not open the session', err);
      }
    },
    async showSessionTask(task) {
      const cur = get().openedSession;
      if (!cur) return;
      set({ openedSession: { ...cur, task, events: [], next: null, total: null, loading: true } });
      try {
        const page = await fetchEvents(cur.session.id, task);
        set((s) =>
          s.openedSession?.session.id === cur.session.id
            ? {
                openedSession: {
                  ...s.openedSession,
                  task,
                  events: page.events,
                  next: page.next,
                  total: page.total,
                  loading: false,
                },
              }
            : {},
        );
      } catch (err) {
        set((s) => (s.openedSession ? { openedSession: { ...s.openedSession, loading: false } } : {}));
        fail('Could not read the events', err);
      }
    },
    async loadMoreEvents() {
      const cur = get().openedSession;
      if (!cur || cur.loading || cur.next === null) return;
      set({ openedSession: { ...cur, loading: true } });
      try {
        const page = await fetchEvents(cur.session.id, cur.task, cur.next);
        set((s) => {
          const o = s.openedSession;
          if (!o || o.session.id !== cur.session.id || o.task !== cur.task) return {};
          return { openedSession: { ...o, events: o.events.concat(page.events), next: page.next, loading: false } };
        });
      } catch (err) {
        set((s) => (s.openedSession ? { openedSession: { ...s.openedSession, loading: false } } : {}));
        fail('Could not read more events', err);
      }
    },
    async loadEarlierEvents() {
      const cur = get().openedSession;
      const first = cur?.events[0]?.seq;
      if (!cur || cur.loading || cur.task !== null || !first) return;
      set({ openedSession: { ...cur, loading: true } });
      try {
        const from = Math.max(0, first - PAGE);
        const page = await fetchWindow(cur.session.id, from, first - from);
        set((s) => {
          const o = s.openedSession;
          if (!o || o.session.id !== cur.session.id || o.task !== null || o.events[0]?.seq !== first)
            return { openedSession: o && { ...o, loading: false } };
          return {
            openedSession: {
              ...o,
              events: page.events.filter((e) => e.seq < first).concat(o.events),
              total: page.total ?? o.total,
              loading: false,
            },
          };
        });
      } catch (err) {
        set((s) => (s.openedSession ? { openedSession: { ...s.openedSession, loading: false } } : {}));
        fail('Could not read earlier events', err);
      }
    },
    async jumpToEvent(seq) {
      const cur = get().openedSession;
      if (!cur || cur.task !== null) return;
      const total = cur.total ?? cur.session.events;
      const offset = seq === 'end' ? Math.max(0, total - PAGE) : Math.max(0, Math.min(seq, Math.max(0, total - 1)));
      set({ openedSession: { ...cur, loading: true } });
      try {
        const page = await fetchWindow(cur.session.id, offset);
        set((s) => {
          const o = s.openedSession;
          if (!o || o.session.id !== cur.session.id || o.task !== null) return {};
          return {
            openedSession: {
              ...o,
              events: page.events,
              next: page.next,
              total: page.total ?? o.total,
              loading: false,
              jump: { to: seq === 'end' ? 'end' : 'top', n: ++jumps },
            },
          };
        });
      } catch (err) {
        set((s) => (s.openedSession ? { openedSession: { ...s.openedSession, loading: false } } : {}));
        fail('Could not read the events', err);
      }
    },
    async makeRehearsal(sessionId) {
      try {
        const r = await invoke('sessions.rehearse', { sessionId });
        const notes = r.notes.length ? ` Note: ${r.notes.join(' ')}` : '';
        get().notify(
          'info',
          `Rehearsal saved in ${r.dir} (${r.capsules.join(', ')}): open it as a workspace to replay the run offline.${notes}`,
        );
      } catch (err) {
        fail('Could not make a rehearsal', err);
      }
    },
    async loadTimeline(around) {
      try {
        const r = await long('Drawing the timeline', (signal) => invoke('sessions.timeline', { around }, { signal }));
        set({ timeline: { around, bars: r.bars, truncated: r.truncated ?? [] } });
      } catch (err) {
        fail('Could not draw the timeline', err);
      }
    },
  };
};
