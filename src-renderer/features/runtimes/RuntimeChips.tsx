import { useStudio } from '../../store';
import { runtimeStateText } from './runtimeState';
import './runtimes.css';

/** The toolbar's Attach runtime… button and one chip per attached runtime: its label, link state, Detach. */
export function RuntimeChips() {
  const runtimes = useStudio((s) => s.runtimes);
  const s = useStudio.getState;
  return (
    <>
      <div className="runtime-chips" aria-label="Attached runtimes">
        {runtimes.map((r) => (
          <span
            key={r.id}
            className="runtime-chip"
            data-state={r.state}
            title={`${r.label}: ${runtimeStateText(r)} — ${r.url}${r.message ? ` (${r.message})` : ''}`}
            data-testid={`runtime-${r.id}`}
          >
            <span className="runtime-dot" aria-hidden="true" />
            <span className="runtime-chip-label">{r.label}</span>
            {/* The toolbar is narrow: the dot's colour says the state here, in words for screen readers
                and the tooltip; the runtime's frame on the canvas says it in words. */}
            <span className="sr-only">{runtimeStateText(r)}</span>
            <button
              type="button"
              className="runtime-chip-detach"
              aria-label={`Detach ${r.label}`}
              title={`Detach ${r.label} (its capsules keep running there)`}
              onClick={() => void s().detachRuntime(r.id)}
            >
              ×
            </button>
          </span>
        ))}
      </div>
      <button
        type="button"
        className="btn runtime-attach-button"
        aria-label="Attach runtime…"
        onClick={() => s().openAttach()}
        title="Attach runtime…: drive the capsules of a capsule serve --studio on another host"
      >
        + Runtime
      </button>
    </>
  );
}
