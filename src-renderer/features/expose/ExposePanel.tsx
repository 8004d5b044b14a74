import { useState } from 'react';
import type { AgentCard } from '../../../src-shared/a2a';
import { mcpClientConfig } from '../../../src-shared/contract';
import { useStudio } from '../../store';
import { openTool } from '../../ui/toolsState';
import { ErrorText } from '../../ui/ErrorText';
import { PublishedLine } from './PublishedLine';
import { CopyField } from './CopyField';
import { GatewaySettings } from './GatewaySettings';
import { ReachFromAnywhere } from './ReachFromAnywhere';
import { accessRow, exposureWarning } from './exposeText';
import { useExpose } from './useExpose';
import './expose.css';
import { formatDateTime } from '../../ui/time';

/** Expose a capsule to outside A2A and MCP callers: toggle, URLs, one-time token + curl + MCP config, card, token lifecycle, reach from anywhere, live calls. */
export function ExposePanel({ capsuleId }: { capsuleId: string }) {
  const name = useStudio((s) => s.capsules[capsuleId]?.name ?? capsuleId);
  const running = useStudio((s) => {
    const st = s.capsules[capsuleId]?.state;
    return st !== undefined && st !== 'stopped' && st !== 'failed';
  });
  const x = useExpose(capsuleId);
  const host = useStudio((s) =>
    x.runtime ? (s.runtimes.find((r) => r.id === x.runtime)?.label ?? x.runtime) : undefined,
  );
  const [compat, setCompat] = useState(false);
  const [card, setCard] = useState<AgentCard | null>(null);
  const [open, setOpen] = useState(false);
  const exposed = !!x.exposure;

  return (
    <details className="expose" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="expose-summary">
        Expose to outside callers {exposed ? <span className="expose-badge">exposed</span> : null}
      </summary>
      {x.gateway && !x.gateway.loopback ? (
        <p className="expose-warning" role="alert">
          {exposureWarning(x.gateway.host)}
        </p>
      ) : null}
      <ErrorText error={x.error} />
      <div className="expose-row">
        <label className="expose-toggle">
          <input
            type="checkbox"
            role="switch"
            aria-checked={exposed}
            checked={exposed}
            disabled={x.busy}
            aria-label={`Expose ${name} through the gateway`}
            onChange={(e) => void (e.target.checked ? x.enable(compat) : x.disable())}
          />
          Expose
        </label>
        <label className="expose-toggle">
          <input
            type="checkbox"
            checked={x.exposure?.compat03 ?? compat}
            disabled={x.busy}
            aria-label="Also accept A2A 0.3 callers"
            onChange={(e) => (exposed ? void x.setCompat03(e.target.checked) : setCompat(e.target.checked))}
          />
          A2A 0.3 callers
        </label>
      </div>
      {exposed && !running ? (
        <p className="muted">
          {name} is not running: callers get 404 until it is launched (or a version of it is published).
        </p>
      ) : null}
      {exposed ? <PublishedLine onOpenHistory={() => openTool('history')} /> : null}

      {x.exposure ? (
        <>
          <CopyField label="Gateway URL" value={x.exposure.url} />
          <CopyField label="Agent card URL" value={x.exposure.cardUrl} />
          <p className="muted">
            A2A clients take the gateway URL as it is, trailing slash included (an SDK&apos;s{' '}
            <span className="mono">createFromUrl(url)</span> finds the card from it), with{' '}
            <span className="mono">Authorization: Bearer &lt;token&gt;</span> on every request.
          </p>
          <CopyField label="MCP URL" value={x.exposure.mcpUrl} />
          <p className="muted">
            MCP clients (desktop assistants, IDEs) see {name} as a tool there (Streamable HTTP), with the same token;
            canceling a call cancels its task.
          </p>
          {x.fresh ? null : (
            <CopyField label="MCP client config" value={mcpClientConfig(x.exposure.mcpUrl, '<token>')} multiline />
          )}
          {x.fresh ? (
            <div className="expose-token" role="region" aria-label="New token">
              <p className="expose-warning">This token is shown once. Copy it now; only its hash is kept.</p>
              <CopyField label="Token" value={x.fresh.token} />
              <CopyField label="curl example" value={x.fresh.curl} multiline />
              <CopyField label="MCP client config" value={x.fresh.mcpConfig} multiline />
              <button type="button" className="btn btn-small" onClick={x.dismissToken} aria-label="Hide the token">
                I have copied it
              </button>
            </div>
          ) : null}
          <div className="expose-row">
            <span className="muted">
              Token <span className="mono">{x.exposure.tokenId}</span> ·{' '}
              {x.exposure.rotatedAt
                ? `rotated ${formatDateTime(x.exposure.rotatedAt)}`
                : `created ${formatDateTime(x.exposure.createdAt)}`}
            </span>
          </div>
          <div className="expose-row">
            <button
              type="button"
              className="btn btn-small"
              disabled={x.busy}
              onClick={() => void x.rotate()}
              aria-label="Rotate the token (the old one stops working)"
            >
              Rotate token
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger"
              disabled={x.busy}
              onClick={() => void x.disable()}
              aria-label="Revoke the token and stop exposing"
            >
              Revoke
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={async () => setCard(card ? null : await x.loadCard())}
              aria-label={card ? 'Hide the agent card' : 'Show the agent card callers get'}
            >
              {card ? 'Hide card' : 'Card preview'}
            </button>
          </div>
          {card ? (
            <pre className="expose-card" aria-label="Agent card preview" tabIndex={0}>
              {JSON.stringify(card, null, 2)}
            </pre>
          ) : null}
          {x.gateway?.signingKid ? (
            <p className="muted">
              Cards are signed (Ed25519, key <span className="mono">{x.gateway.signingKid.slice(0, 12)}…</span>).
            </p>
          ) : null}
        </>
      ) : null}

      {/* Tunnels front this Studio's own gateway (an attached runtime's capsule is exposed by its host's).
          Rendered only while the panel is open, so a tunnel link shown once goes when it closes. */}
      {open && !x.runtime ? <ReachFromAnywhere name={name} gatewayUrl={x.exposure?.url} /> : null}

      <h4 className="expose-sub">External calls</h4>
      {x.log.length === 0 ? (
        <p className="muted">No external call yet.</p>
      ) : (
        <table className="expose-log" aria-label={`External calls to ${name}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Method</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {[...x.log].reverse().map((e, i) => {
              const r = accessRow(e);
              return (
                <tr key={`${e.time}-${i}`} className={r.ok ? undefined : 'expose-refused'}>
                  <td className="mono">{r.when}</td>
                  <td className="mono">{r.who}</td>
                  <td>{r.method}</td>
                  <td>{r.outcome}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {x.gateway ? <GatewaySettings gateway={x.gateway} busy={x.busy} onApply={x.configure} host={host} /> : null}
    </details>
  );
}
