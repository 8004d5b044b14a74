import type { Artifact } from '../../../src-shared/a2a';
import { PartView } from './PartView';

/** What the task produced: each artifact's name and parts (the residue artifact is shown as residue). */
export function Artifacts({ artifacts }: { artifacts: Artifact[] }) {
  if (artifacts.length === 0) return <p className="muted">No artifacts.</p>;
  return (
    <ul className="artifacts" aria-label="Artifacts">
      {artifacts.map((a) => {
        const name = a.name || a.artifactId;
        return (
          <li key={a.artifactId} className="artifact" aria-label={`Artifact ${name}`}>
            <div className="artifact-head">
              <strong>{name}</strong>
              {a.description ? <span className="muted"> {a.description}</span> : null}
            </div>
            {a.parts.map((p, i) => (
              <PartView key={i} part={p} label={`Artifact ${name}`} />
            ))}
          </li>
        );
      })}
    </ul>
  );
}
