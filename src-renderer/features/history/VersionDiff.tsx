import { lineDiff } from '../../../src-shared/manifest';
import type { CapsuleDiffView, VersionDiffView } from '../../../src-shared/contract';

// Two versions of a formation: the permissions granted or taken back (an edge is a permission),
// the capsules added, removed or changed, and each changed manifest side by side, line by line.

function SideBySide({ c }: { c: CapsuleDiffView }) {
  const rows = lineDiff(c.before ?? '', c.after ?? '');
  return (
    <table className="history-sides" aria-label={`${c.id} manifest side by side`}>
      <thead>
        <tr>
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} data-kind={r.kind}>
            <td className="mono">{r.kind === 'added' ? '' : r.text}</td>
            <td className="mono">{r.kind === 'removed' ? '' : r.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function VersionDiff({ diff }: { diff: VersionDiffView }) {
  const nothing = !diff.capsules.length && !diff.permissions.length;
  return (
    <section className="history-diff" aria-label={`Changes from ${diff.from} to ${diff.to}`}>
      <h4>
        <span className="mono">{diff.from}</span> → <span className="mono">{diff.to}</span>
      </h4>
      {nothing ? <p className="muted">{diff.formationChanged ? 'Only the layout changed.' : 'No change.'}</p> : null}
      {diff.permissions.length ? (
        <ul className="history-permissions" aria-label="Permissions changed">
          {diff.permissions.map((p) => (
            <li key={p} data-kind={/no longer/.test(p) ? 'removed' : 'added'}>
              {p}
            </li>
          ))}
        </ul>
      ) : null}
      {diff.capsules.map((c) => (
        <details key={c.id} className="history-capsule" open={diff.capsules.length <= 2}>
          <summary>
            <span className="history-change" data-kind={c.change}>
              {c.change}
            </span>{' '}
            <span className="mono">{c.id}</span> <span className="muted mono">{c.path}</span>
          </summary>
          <SideBySide c={c} />
        </details>
      ))}
    </section>
  );
}
