import { Suspense, useDeferredValue, useState } from 'react';
import { useStudio, type SideTab } from '../store';
import {
  ExposePanel,
  LiveTracePanel,
  ManifestPanel,
  RemoteDetails,
  TaskInspector,
  ToolServerDetails,
} from './lazyFeatures';
import { FormationSummary } from './FormationSummary';
import { FullWidthButton, SideFrame } from './SideFrame';

const TABS: { id: SideTab; label: string }[] = [
  { id: 'manifest', label: 'Manifest' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'trace', label: 'Live trace' },
];

/** The right-hand panel: details of the selected node, or the formation when none is. */
export function SidePanel() {
  // Deferred: grabbing a node selects it, and the panel's first render (a manifest parse) must not
  // hold up the drag's first frames; React renders it right after, at lower priority.
  const selectedId = useDeferredValue(useStudio((s) => s.selectedId));
  const capsuleName = useStudio((s) => (selectedId ? s.capsules[selectedId]?.name : undefined));
  const isRemote = useStudio((s) => !!selectedId && !!s.remotes[selectedId]);
  const isToolServer = useStudio((s) => !!selectedId && !!s.toolServers[selectedId]);
  const tab = useStudio((s) => s.sideTab);
  const [full, setFull] = useState(false);

  if (selectedId && isRemote) {
    return (
      <SideFrame label="Details" full={false} onFull={setFull}>
        <Suspense fallback={null}>
          <RemoteDetails id={selectedId} />
        </Suspense>
      </SideFrame>
    );
  }
  if (selectedId && isToolServer) {
    return (
      <SideFrame label="Details" full={false} onFull={setFull}>
        <Suspense fallback={null}>
          <ToolServerDetails id={selectedId} />
        </Suspense>
      </SideFrame>
    );
  }
  if (!selectedId || !capsuleName) {
    return (
      <SideFrame label="Details" full={false} onFull={setFull}>
        <FormationSummary />
      </SideFrame>
    );
  }
  return (
    <SideFrame label={`Details of ${capsuleName}`} full={full} onFull={setFull}>
      <div className="side-head">
        <h2 className="side-title">{capsuleName}</h2>
        <span className="side-head-actions">
          <FullWidthButton full={full} onFull={setFull} />
          <button
            type="button"
            className="btn btn-small"
            onClick={() => useStudio.getState().select(null)}
            aria-label="Close details"
          >
            ✕
          </button>
        </span>
      </div>
      <div className="tabs" role="tablist" aria-label="Capsule details">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className="tab"
            onClick={() => useStudio.getState().setSideTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} data-tab={tab}>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          {tab === 'manifest' ? (
            <ManifestPanel capsuleId={selectedId} />
          ) : tab === 'tasks' ? (
            <TaskInspector capsuleId={selectedId} />
          ) : (
            <LiveTracePanel capsuleId={selectedId} />
          )}
        </Suspense>
      </div>
      <Suspense fallback={null}>
        <ExposePanel key={selectedId} capsuleId={selectedId} />
      </Suspense>
    </SideFrame>
  );
}
