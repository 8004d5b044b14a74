import { Suspense } from 'react';
import { useStudio } from '../../store';
import { lazyPart } from '../../ui/PartBoundary';

// The overlay (the sessions browser, the timeline, a session's trace) loads when first opened:
// the toolbar's button is on the first screen, what it opens is not.
const SessionsOverlay = lazyPart('the sessions browser', () =>
  import('./SessionsOverlay').then((m) => m.SessionsOverlay),
);

/** The toolbar's Sessions button and the overlay it opens: the sessions browser and the timeline. */
export function SessionsButton() {
  const view = useStudio((s) => s.sessionsView);
  return (
    <>
      <button
        type="button"
        className="btn"
        onClick={() => useStudio.getState().showSessions('sessions')}
        aria-haspopup="dialog"
      >
        Sessions
      </button>
      {view !== 'closed' ? (
        <Suspense fallback={null}>
          <SessionsOverlay view={view} />
        </Suspense>
      ) : null}
    </>
  );
}
