import { useMemo } from 'react';
import type { SessionItemView } from '../../../src-shared/contract';
import { snippetOf } from '../../../src-shared/trace';
import { useStudio } from '../../store';

/** Where a text search found a session: the matching line's type and its text around the words, the words highlighted. */
export function SearchSnippet({ match }: { match: NonNullable<SessionItemView['match']> }) {
  const search = useStudio((s) => s.sessionFilter.search);
  const parts = useMemo(() => snippetOf(match.text, search), [match.text, search]);
  return (
    <span className="session-match" data-testid="session-match">
      <span className="session-match-type mono">{match.type}</span>{' '}
      {parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  );
}
