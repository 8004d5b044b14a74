import { lazyActions } from './lazyActions';
import type { SliceCreator } from './types';
import { SESSIONS_ACTIONS, type SessionsSlice } from './state/sessions';
export type { SessionFilter, OpenSession, SessionsSlice } from './state/sessions';

// The sessions browser and the timeline. Lists and pages come from the core's trace
// store on demand; nothing here follows the live stream (the live trace panel does that).
// Reading them (sessionsActions.ts) loads when the browser first asks (see lazyActions).

export const createSessionsSlice: SliceCreator<SessionsSlice> = (set, get, api) => ({
  ...lazyActions(SESSIONS_ACTIONS, () => import('./sessionsActions').then((m) => m.createSessionsActions))(
    set,
    get,
    api,
  ),
  sessionsView: 'closed',
  sessionFilter: { runtime: '', capsule: '', state: '', since: null, until: null, search: '' },
  sessionList: [],
  sessionsLoading: false,
  traceStore: null,
  openedSession: null,
  timeline: null,
  showSessions(view) {
    set({ sessionsView: view });
    if (view === 'sessions') void get().loadSessions();
    if (view === 'timeline' && !get().timeline) {
      const around = get().openedSession?.session.id ?? get().sessionList[0]?.id;
      if (around) void get().loadTimeline(around);
    }
  },
  async setSessionFilter(patch) {
    set((s) => ({ sessionFilter: { ...s.sessionFilter, ...patch } }));
    await get().loadSessions();
  },
});
