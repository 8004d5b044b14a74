import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useStudio } from '../../store';
import { ErrorText } from '../../ui/ErrorText';
import { TUNNEL_PROVIDERS, TUNNEL_TTLS, type TunnelView } from '../../../src-shared/contract';
import { CopyField } from './CopyField';
import { tunnelStore } from './tunnelStore';
import { expiresIn, throughTunnel, tunnelCallRow, tunnelStateText } from './tunnelText';
import { formatDateTime } from '../../ui/time';

type Provider = (typeof TUNNEL_PROVIDERS)[number];
type Ttl = (typeof TUNNEL_TTLS)[number];

/** The clock, ticking every `ms` while something counts down (null: not ticking). */
function useNow(ms: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (ms === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * "Reach from anywhere": a public https URL to this Studio's gateway through cloudflared or ngrok,
 * guarded by a link shown once. `gatewayUrl`: the capsule's gateway URL when it is exposed (its
 * address through the tunnel is shown beside the public URL).
 */
export function ReachFromAnywhere({ name, gatewayUrl }: { name: string; gatewayUrl?: string }) {
  const t = tunnelStore();
  const s = useStore(t.store);
  const [provider, setProvider] = useState<Provider>('cloudflared');
  const [ttl, setTtl] = useState<Ttl>('24h');
  // The link is held here only, while this section shows it: closing the section (or the panel),
  // "I have copied it", revoking or stopping the tunnel forgets it for good.
  const [fresh, setFresh] = useState<{ id: string; link: string } | null>(null);
  const now = useNow(s.tunnels.length > 0 ? 1000 : null);
  // Read the list when the section mounts and again after a reconnect (events were missed meanwhile).
  const linked = useStudio((st) => st.linked);
  useEffect(() => {
    if (linked) void t.load();
  }, [t, linked]);
  const shown = fresh && s.tunnels.some((x) => x.id === fresh.id && x.state === 'open') ? fresh : null;

  return (
    <details className="expose-tunnels" onToggle={(e) => (e.currentTarget.open ? undefined : setFresh(null))}>
      <summary className="expose-summary">
        Reach from anywhere{' '}
        {s.tunnels.length ? (
          <span className="expose-badge">
            {s.tunnels.length === 1 ? 'tunnel open' : `${s.tunnels.length} tunnels open`}
          </span>
        ) : null}
      </summary>
      <p className="muted">
        A public https URL to this Studio&apos;s gateway (cloudflared needs no account; ngrok its authtoken in the
        secret NGROK_AUTHTOKEN). Only callers who opened its link get through, each with a capsule&apos;s token.
      </p>
      {gatewayUrl ? null : (
        <p className="muted">{name} is not exposed: callers through a tunnel reach only exposed capsules.</p>
      )}
      <ErrorText error={s.error} />
      <div className="expose-row">
        <Choice
          label="Provider"
          name="Tunnel provider"
          value={provider}
          options={TUNNEL_PROVIDERS}
          disabled={s.busy}
          onChange={setProvider}
        />
        <Choice
          label="Lifetime"
          name="Tunnel lifetime"
          value={ttl}
          options={TUNNEL_TTLS}
          disabled={s.busy}
          onChange={setTtl}
        />
        <button
          type="button"
          className="btn btn-small"
          disabled={s.busy}
          aria-label="Open a tunnel to the gateway"
          onClick={async () => {
            const created = await t.create({ provider, ttl });
            if (created) setFresh({ id: created.tunnel.id, link: created.link });
          }}
        >
          {s.busy ? 'Working…' : 'Open tunnel'}
        </button>
      </div>
      {s.tunnels.map((x) => (
        <TunnelCard
          key={x.id}
          tunnel={x}
          now={now}
          gatewayUrl={gatewayUrl}
          link={shown?.id === x.id ? shown.link : null}
          onHideLink={() => setFresh(null)}
        />
      ))}
    </details>
  );
}

function Choice<T extends string>({
  label,
  name,
  value,
  options,
  disabled,
  onChange,
}: {
  label: string;
  name: string;
  value: T;
  options: readonly T[];
  disabled: boolean;
  onChange(v: NoInfer<T>): void;
}) {
  return (
    <label className="expose-toggle">
      {label}
      <select
        className="select"
        value={value}
        disabled={disabled}
        aria-label={name}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

function TunnelCard({
  tunnel: x,
  now,
  gatewayUrl,
  link,
  onHideLink,
}: {
  tunnel: TunnelView;
  now: number;
  gatewayUrl?: string;
  link: string | null;
  onHideLink(): void;
}) {
  const t = tunnelStore();
  const busy = useStore(t.store, (s) => s.busy);
  const calls = useStore(t.store, (s) => s.calls[x.id]);
  return (
    <section className="expose-tunnel" aria-label={`Tunnel ${x.publicUrl}`}>
      <p className="expose-tunnel-head">
        <span className="mono">{x.provider}</span> ·{' '}
        <span className={x.state === 'open' ? undefined : 'expose-refused-text'}>{tunnelStateText(x)}</span> ·{' '}
        <span title={formatDateTime(x.expiresAt)}>{expiresIn(x.expiresAt, now)}</span>
      </p>
      <CopyField label="Public URL" value={x.publicUrl} />
      {gatewayUrl ? (
        <CopyField label="Gateway URL through the tunnel" value={throughTunnel(x.publicUrl, gatewayUrl)} />
      ) : null}
      {link ? (
        <div className="expose-token" role="region" aria-label="New tunnel link">
          <p className="expose-warning">
            This link is shown once. Copy it now and hand it to the caller: opening it once sets the cookie that lets
            their calls through.
          </p>
          <CopyField label="Tunnel link" value={link} />
          <button type="button" className="btn btn-small" onClick={onHideLink} aria-label="Hide the tunnel link">
            I have copied it
          </button>
        </div>
      ) : null}
      <div className="expose-row">
        <span className="muted">
          {x.calls} {x.calls === 1 ? 'call' : 'calls'} let through, {x.refused} refused
        </span>
        <button
          type="button"
          className="btn btn-small btn-danger"
          disabled={busy || x.state !== 'open'}
          onClick={() => void t.revoke(x.id)}
          aria-label="Revoke the tunnel link (callers are refused at once)"
        >
          Revoke
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() => void t.stop(x.id)}
          aria-label="Stop the tunnel"
        >
          Stop
        </button>
      </div>
      {calls?.length ? (
        <table className="expose-log" aria-label={`Calls through ${x.publicUrl}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Request</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {[...calls].reverse().map((e, i) => {
              const r = tunnelCallRow(e);
              return (
                <tr key={`${e.time}-${calls.length - i}`} className={r.refused ? 'expose-refused' : undefined}>
                  <td className="mono">{r.when}</td>
                  <td className="mono">{r.request}</td>
                  <td>{r.outcome}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="muted">No call through this tunnel yet.</p>
      )}
    </section>
  );
}
