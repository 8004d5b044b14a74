import { useEffect, useState } from 'react';
import type { GatewayView } from '../../../src-shared/contract';
import { parsePort } from './exposeText';

/**
 * Where the gateway listens: host (loopback unless chosen otherwise), port, public origin.
 * `host`: the label of the attached runtime whose gateway this is (its settings apply on that host).
 */
export function GatewaySettings({
  gateway,
  busy,
  onApply,
  host: runtime,
}: {
  gateway: GatewayView;
  busy: boolean;
  onApply: (input: { host?: string; port?: number; publicOrigin?: string | null }) => void;
  host?: string;
}) {
  const [host, setHost] = useState(gateway.host);
  const [port, setPort] = useState(String(gateway.port));
  const [origin, setOrigin] = useState(gateway.publicOrigin ?? '');
  // The fields follow the gateway (it may have started, or moved, since the panel opened).
  useEffect(() => {
    setHost(gateway.host);
    setPort(String(gateway.port));
    setOrigin(gateway.publicOrigin ?? '');
  }, [gateway.host, gateway.port, gateway.publicOrigin]);
  const portValue = parsePort(port);
  return (
    <details className="expose-settings">
      <summary>
        {runtime ? `Gateway of ${runtime} ` : 'Gateway '}
        {gateway.running && gateway.url ? (
          <span className="mono">{gateway.url}</span>
        ) : (
          <span className="muted">(not running)</span>
        )}
      </summary>
      {runtime ? (
        <p className="muted">
          These are the settings of {runtime}&apos;s gateway: Apply restarts it on that host, never this Studio&apos;s
          own gateway.
        </p>
      ) : null}
      <form
        className="expose-form"
        onSubmit={(e) => {
          e.preventDefault();
          onApply({
            host: host.trim(),
            ...(portValue !== undefined ? { port: portValue } : {}),
            publicOrigin: origin.trim() ? origin.trim() : null,
          });
        }}
      >
        <label>
          Host
          <input
            value={host}
            onChange={(e) => setHost(e.target.value)}
            aria-label="Gateway host (127.0.0.1 keeps it on this machine)"
          />
        </label>
        <label>
          Port
          <input
            value={port}
            inputMode="numeric"
            onChange={(e) => setPort(e.target.value)}
            aria-label="Gateway port (0 lets the system pick)"
            aria-invalid={portValue === undefined}
          />
        </label>
        <label>
          Public origin
          <input
            value={origin}
            placeholder="https://agents.example.com"
            onChange={(e) => setOrigin(e.target.value)}
            aria-label="Public origin cards advertise (behind a proxy or tunnel)"
          />
        </label>
        <button
          type="submit"
          className="btn btn-small"
          disabled={busy || portValue === undefined}
          aria-label={
            runtime
              ? `Apply gateway settings on ${runtime} (restarts its gateway)`
              : 'Apply gateway settings (restarts the gateway)'
          }
        >
          Apply
        </button>
      </form>
    </details>
  );
}
