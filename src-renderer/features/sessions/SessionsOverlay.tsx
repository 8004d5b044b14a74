import { useEffect } from 'react';
import { useStudio } from '../../store';
import { TimelineView } from './timeline';
import { SessionsBrowser } from './SessionsBrowser';
import './sessions.css';

/** The overlay the toolbar's Sessions button opens: the sessions browser and the timeline. */
export function SessionsOverlay({ view }: { view: 'sessions' | 'timeline' }) {
  const show = useStudio.getState().showSessions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && show('closed');
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [show]);
  return (
    <div className="sessions-overlay" role="dialog" aria-modal="true" aria-label="Sessions and timeline">
      <div className="sessions-head">
        <div className="tabs" role="tablist" aria-label="Sessions views">
          {(['sessions', 'timeline'] as const).map((v) => (
            <button key={v} type="button" role="tab" className="tab" aria-selected={view === v} onClick={() => show(v)}>
              {v === 'sessions' ? 'Sessions' : 'Timeline'}
            </button>
          ))}
        </div>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-small" aria-label="Close sessions" onClick={() => show('closed')}>
          ✕
        </button>
      </div>
      <div className="sessions-body" role="tabpanel" aria-label={view === 'sessions' ? 'Sessions' : 'Timeline'}>
        {view === 'sessions' ? <SessionsBrowser /> : <TimelineView />}
      </div>
    </div>
  );
}
