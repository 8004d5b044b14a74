import { useStudio } from '../../store';
import { runtimeStateText } from './runtimeState';

/** The toolbar's Attach runtime… button and one chip per attached runtime: its label, link state, Detach. */
export function RuntimeChips() {
  const runtimes = useStudio((s) => s.runtimes);
  const s = useStudio.getState;
  return (
    <div className="runtime-chips" aria-label="Attached runtimes">
      {runtimes.map((r) => (
        <span key={r.id} className="runtime-chip" data-state={r.state} title={`${r.url}${r.message ? ` — ${r.message}` : ''}`} data-testid={`runtime-${r.id}`}>
          <span className="runtime-dot" aria-hidden="true" />
          <span className="runtime-chip-label">{r.label}</span>
          {/* Connected is the green dot (the toolbar is narrow); every other state is said in words. */}
          {r.state === 'connected' ? <span className="sr-only">connected</span> : <span className="runtime-chip-state">{runtimeStateText(r)}</span>}
          <button type="button" className="runtime-chip-detach" aria-label={`Detach ${r.label}`} title={`Detach ${r.label} (its capsules keep running there)`} onClick={() => void s().detachRuntime(r.id)}>
            ×
          </button>
        </span>
      ))}
      <button type="button" className="btn" aria-label="Attach runtime…" onClick={() => s().openAttach()} title="Attach runtime…: drive the capsules of a capsule serve --studio on another host">
        + Runtime
      </button>
    </div>
  );
}
