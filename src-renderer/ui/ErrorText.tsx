import type { ReactNode } from 'react';

/**
 * What went wrong, announced to screen readers (role="alert"), with the buttons that deal with it
 * (retry, open settings…) beside it when there are any. Draws nothing while there is no error.
 */
export function ErrorText({ error, children }: { error: string | null | undefined; children?: ReactNode }) {
  if (!error) return null;
  const text = (
    <p className="error-text" role="alert">
      {error}
    </p>
  );
  if (!children) return text;
  return (
    <div className="error-with-actions">
      {text}
      <div className="error-actions">{children}</div>
    </div>
  );
}
