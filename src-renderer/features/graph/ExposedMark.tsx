import { exposureOf, useStudio } from '../../store';
import './exposed-mark.css';

// A capsule exposed to outside callers says so on its node, not only in its details: stopping it
// (or leaving its workspace) cuts those callers off. Read from the same record as the Expose
// panel's badge (`exposureOf`); the tooltip gives the address callers use, once the gateway has one.

export function ExposedMark({ id, name, compact }: { id: string; name: string; compact?: boolean }) {
  const url = useStudio((s) => {
    const e = exposureOf(s, id);
    return e ? e.url : null;
  });
  if (url === null) return null;
  const label = `${name} is exposed to outside callers`;
  return (
    <span
      className="exposed-mark"
      data-compact={compact || undefined}
      role="img"
      aria-label={label}
      title={url ? `${label} at ${url}` : label}
    >
      {compact ? '↗' : '↗ exposed'}
    </span>
  );
}
