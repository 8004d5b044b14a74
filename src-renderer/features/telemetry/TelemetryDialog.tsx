import { useEffect, useState, type FormEvent } from 'react';
import type { TelemetryView } from '../../../src-shared/contract';
import { Dialog, FormActions } from '../../ui/Dialog';
import { TextInput } from '../../ui/TextInput';
import { describeError, invoke } from '../../store';
import './telemetry.css';

// OpenTelemetry settings: where the sessions the Studio launches send their spans. A header's
// value is typed here, sent once (telemetry.configure) into the secret store, and the field is
// cleared: the core answers with header names only. The counts refresh while the dialog is open.

/** How often the exporter's counts are read while the dialog is open. */
const STATS_REFRESH_MS = 2000;

type HeaderRow = { key: number; name: string; value: string; set: boolean };
let rowKey = 0;

export function TelemetryDialog({ onClose }: { onClose(): void }) {
  const [view, setView] = useState<TelemetryView | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [endpoint, setEndpoint] = useState('');
  const [protocol, setProtocol] = useState<TelemetryView['protocol']>('http/protobuf');
  const [serviceName, setServiceName] = useState('');
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const show = (v: TelemetryView) => {
    setView(v);
    setEnabled(v.enabled);
    setEndpoint(v.endpoint);
    setProtocol(v.protocol);
    setServiceName(v.serviceName);
    setHeaders(v.headers.map((h) => ({ key: rowKey++, name: h.name, value: '', set: h.set })));
  };
  useEffect(() => {
    invoke('telemetry.get', {}).then(show, (err) => setMessage({ error: true, text: describeError(err) }));
    const timer = setInterval(() => {
      invoke('telemetry.get', {}).then(
        (v) => setView((old) => (old ? { ...old, stats: v.stats, active: v.active } : old)),
        () => undefined,
      );
    }, STATS_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const rows = headers.filter((h) => h.name.trim());
    // The typed values leave the page now; the fields are cleared whatever the answer.
    const payload = {
      enabled,
      endpoint: endpoint.trim(),
      protocol,
      serviceName: serviceName.trim(),
      headers: rows.map((h) => ({ name: h.name.trim(), ...(h.value ? { value: h.value } : {}) })),
    };
    setHeaders((hs) => hs.map((h) => ({ ...h, value: '' })));
    try {
      show(await invoke('telemetry.configure', payload));
      setMessage({
        error: false,
        text: 'Saved. Sessions launched from now on use these settings; running capsules keep theirs until restarted.',
      });
    } catch (err) {
      setMessage({ error: true, text: describeError(err) });
    } finally {
      setBusy(false);
    }
  };
  const edit = (key: number, patch: Partial<HeaderRow>) =>
    setHeaders((hs) => hs.map((h) => (h.key === key ? { ...h, ...patch } : h)));

  return (
    <Dialog title="OpenTelemetry" onClose={onClose}>
      <form className="otel" data-testid="telemetry" onSubmit={(e) => void save(e)}>
        <p className="muted">
          Every session’s trace as OpenTelemetry spans over OTLP/HTTP (a span per task, turn, tool call and delegation;
          one formation run is one trace). Applies to sessions launched after you save; running capsules keep what they
          started with until restarted.
        </p>
        <p className="otel-hint">
          Precedence: when the Studio’s own environment sets OTEL_EXPORTER_OTLP_ENDPOINT,
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, CAPSULE_OTEL or OTEL_SDK_DISABLED, the environment decides the whole
          export and these settings wait.
        </p>
        {view && view.environment.length > 0 ? (
          <p className="otel-env" role="note">
            The Studio’s own environment sets <span className="mono">{view.environment.join(', ')}</span>: the OTEL_*
            environment decides the export, and these settings wait until it no longer does.
          </p>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Export spans
        </label>
        <TextInput
          label="Endpoint"
          value={endpoint}
          onChange={setEndpoint}
          placeholder="http://localhost:4318"
          hint="Spans go to <endpoint>/v1/traces."
        />
        <div className="otel-row">
          <div className="field">
            <label className="field-label" htmlFor="otel-protocol">
              Protocol
            </label>
            <select
              id="otel-protocol"
              className="select"
              value={protocol}
              onChange={(e) => setProtocol(e.target.value as TelemetryView['protocol'])}
            >
              <option value="http/protobuf">http/protobuf</option>
              <option value="http/json">http/json</option>
            </select>
          </div>
          <TextInput label="Service name" value={serviceName} onChange={setServiceName} />
        </div>
        <fieldset className="otel-headers">
          <legend>Headers</legend>
          <p className="otel-hint">
            Values are kept in the secret store and never shown again; leave a value empty to keep the stored one.
          </p>
          {headers.map((h) => (
            <div key={h.key} className="otel-header-row">
              <input
                className="input mono"
                aria-label="Header name"
                placeholder="authorization"
                value={h.name}
                onChange={(e) => edit(h.key, { name: e.target.value })}
                spellCheck={false}
              />
              <input
                className="input mono"
                type="password"
                aria-label={`Value of ${h.name || 'the header'}`}
                placeholder={h.set ? '•••••••• (kept)' : 'value'}
                value={h.value}
                onChange={(e) => edit(h.key, { value: e.target.value })}
                autoComplete="off"
              />
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Remove header ${h.name}`}
                onClick={() => setHeaders((hs) => hs.filter((x) => x.key !== h.key))}
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            className="btn btn-small otel-add"
            onClick={() => setHeaders((hs) => [...hs, { key: rowKey++, name: '', value: '', set: false }])}
          >
            Add header
          </button>
        </fieldset>
        <Status view={view} />
        {message ? (
          <p className={message.error ? 'error-text' : 'otel-message'} role={message.error ? 'alert' : 'status'}>
            {message.text}
          </p>
        ) : null}
        <FormActions onCancel={onClose} submit={'Save'} disabled={busy || !view} cancel="Close" />
      </form>
    </Dialog>
  );
}

function Status({ view }: { view: TelemetryView | null }) {
  if (!view) return null;
  const a = view.active;
  return (
    <div className="otel-status" aria-label="Export status">
      <p>
        {a ? (
          <>
            Sessions launched now export to <span className="mono">{a.url}</span> ({a.protocol}, service{' '}
            <span className="mono">{a.serviceName}</span>
            {a.headers.length ? `, headers ${a.headers.join(', ')}` : ''}), as{' '}
            {a.source === 'studio' ? 'set here' : 'the environment says'}.
          </>
        ) : (
          'Sessions launched now export nothing.'
        )}
      </p>
      <p className="otel-counts" data-testid="otel-counts">
        {view.stats
          ? `${view.stats.exported} spans sent · ${view.stats.queued} waiting · ${view.stats.dropped} dropped (queue full)`
          : 'No spans sent yet.'}
      </p>
    </div>
  );
}
