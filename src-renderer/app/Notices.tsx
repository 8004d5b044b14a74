import { useEffect } from 'react';
import { useStudio, type Notice } from '../store';

const FADE_MS = 6000;

function NoticeItem({ notice }: { notice: Notice }) {
  const dismiss = useStudio((s) => s.dismissNotice);
  useEffect(() => {
    if (notice.level === 'error') return;
    const t = setTimeout(() => dismiss(notice.id), FADE_MS);
    return () => clearTimeout(t);
  }, [notice, dismiss]);
  return (
    <div className="notice" data-kind={notice.level} role={notice.level === 'error' ? 'alert' : 'status'}>
      <span className="notice-text">{notice.message}</span>
      <button type="button" className="btn btn-small" onClick={() => dismiss(notice.id)} aria-label="Dismiss notice">
        ✕
      </button>
    </div>
  );
}

/** Messages for the user (in the canvas's lower left; bottom right before a workspace is open): errors stay until dismissed. */
export function Notices() {
  const notices = useStudio((s) => s.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}
