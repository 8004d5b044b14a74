import { useDeferredValue, useEffect, useState } from 'react';
import { useStudio } from '../store';
import { ManifestPanel } from '../features/manifest';
import { TaskInspector } from '../features/inspector';
import { LiveTracePanel } from '../features/traces';
import { ExposePanel } from '../features/expose';
import { FormationSummary, RemoteDetails } from './Details';

type Tab = 'manifest' | 'tasks' | 'trace';
const TABS: { id: Tab; label: string }[] = [
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
  const [tab, setTab] = useState<Tab>('manifest');
  // A task opened from elsewhere (an edge's list of tasks) shows in the Tasks tab.
  const inspected = useStudio((s) => s.inspected);
  useEffect(() => {
    if (inspected) setTab('tasks');
  }, [inspected]);

  if (selectedId && isRemote) {
    return (
      <aside className="studio-side" aria-label="Details">
        <RemoteDetails id={selectedId} />
      </aside>
    );
  }
  if (!selectedId || !capsuleName) {
    return (
      <aside className="studio-side" aria-label="Details">
        <FormationSummary />
      </aside>
    );
  }
  return (
    <aside className="studio-side" aria-label={`Details of ${capsuleName}`}>
      <div className="side-head">
        <h2 className="side-title">{capsuleName}</h2>
        <button type="button" className="btn btn-small" onClick={() => useStudio.getState().select(null)} aria-label="Close details">
          ✕
        </button>
      </div>
      <div className="tabs" role="tablist" aria-label="Capsule details">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls={`panel-${t.id}`} className="tab" onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'manifest' ? <ManifestPanel capsuleId={selectedId} /> : tab === 'tasks' ? <TaskInspector capsuleId={selectedId} /> : <LiveTracePanel capsuleId={selectedId} />}
      </div>
      <ExposePanel key={selectedId} capsuleId={selectedId} />
    </aside>
  );
}
