import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './app/theme.css';
import './app/app.css';
import './features/graph/graph.css';
import { App } from './app/App';
import { applyTheme } from './ui/useTheme';
import { PartBoundary } from './ui/PartBoundary';
import {
  catchUpFlow,
  connectCoreEvents,
  forgetRecentFlow,
  hasWork,
  ingest,
  installEscToCancel,
  setCoreClient,
  startKeeping,
  useStudio,
} from './store';
import { createCoreClient } from './transport';

applyTheme();

// One client and one event subscription for the window's life, outside React.
const client = createCoreClient(
  (up) => {
    const s = useStudio.getState();
    s.setLinked(up);
    // (Re)load the whole formation on every (re)connect: events missed while down are superseded;
    // so are the unfinished tasks' (the console follows tasks by task.updated alone).
    // The flow on the canvas (delegations, what each task waits on) is read again from the recent
    // trace lines of the sessions with work in hand (flowCatchUp.ts, loaded then); a session without
    // (idle, or stopped), when a view first needs it (`readRecentFlow`).
    // A new connection follows nothing: the open live trace follows its session again.
    if (!up) forgetRecentFlow();
    if (up) {
      void s.loadFormation().then(() => {
        void s.catchUpTasks();
        const now = useStudio.getState();
        if (Object.values(now.capsules).some(hasWork)) void catchUpFlow();
      });
      void s.refollowTrace();
      void s.loadBreakpoints();
      void s.loadRuntimes();
      void s.loadExposures();
    }
  },
  (url) => useStudio.getState().setMoved(url),
);
setCoreClient(client);
// Esc cancels a long command (a test run, a publish, a fork) before a dialog hears it.
installEscToCancel(window);
connectCoreEvents(client, ingest);
// Conversations, the selected capsule and panel sizes survive a reload or a restart.
startKeeping(useStudio);
// Attached runtimes change rarely (a link up, lost, refused): straight into the store.
client.on('runtimes.changed', (p) => useStudio.getState().setRuntimes(p.runtimes));
// So do exposures (a capsule exposed, revoked, its token rotated): the canvas marks exposed capsules.
client.on('exposure.changed', (p) => useStudio.getState().setExposures(p));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* The last resort: a failure no part caught says so, with Reload, rather than a blank window. */}
    <PartBoundary what="the Studio">
      <App />
    </PartBoundary>
  </StrictMode>,
);
