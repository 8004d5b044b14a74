import { useStudio } from '../store';

// The link to the core, told once while it is down: reconnecting, or, when the Studio was started
// again on another port (web shell), where it runs now, with a link there instead of retrying.

export function ConnectionBanner() {
  const linked = useStudio((s) => s.linked);
  const movedTo = useStudio((s) => s.movedTo);
  if (linked) return null;
  if (movedTo) {
    return (
      <div className="banner banner-info banner-moved" role="alert">
        <span>
          The Studio core this page used has ended, and the Studio was started again at{' '}
          <span className="mono">{movedTo}</span>.
        </span>
        <a className="btn btn-small btn-primary" href={`${movedTo}/`} aria-label={`Open the Studio at ${movedTo}`}>
          Open it there
        </a>
      </div>
    );
  }
  return (
    <div className="banner" role="alert">
      The connection to the Studio core was lost. Reconnecting… Your unsaved edits stay here.
    </div>
  );
}
