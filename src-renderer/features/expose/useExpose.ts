import { useCallback, useEffect, useState } from 'react';
import type { AccessEntryView, ExposeAnswer, ExposureView, GatewayView } from '../../../src-shared/contract';
import { describeError, exposureOf, invoke, onCoreEvent, useStudio } from '../../store';

// The Expose panel's state: the gateway and this capsule's exposure (from the store, the one record
// the canvas's mark reads too), its live access log, and the one-time answer (token + curl) held
// only while the panel shows it, never in the shared store.

const LOG_LIMIT = 100;

export interface ExposeState {
  gateway: GatewayView | null;
  exposure: ExposureView | null;
  /** Set right after enable/rotate: the only time the token is shown. */
  fresh: ExposeAnswer | null;
  log: AccessEntryView[];
  busy: boolean;
  error: string | null;
}

type Local = Omit<ExposeState, 'gateway' | 'exposure'>;

/** The attached runtime a capsule id names (`@host-b/writer`), or undefined for this Studio's own. */
const runtimeOfCapsule = (capsuleId: string) => /^@([a-z0-9][a-z0-9-]{0,31})\//.exec(capsuleId)?.[1];

export function useExpose(capsuleId: string) {
  // A runtime's capsule is exposed by that host's gateway: its list, its live calls and its
  // settings come from and go to there. Events tagged with a runtime are that host's gateway's;
  // untagged ones are this Studio's own: each panel takes only its gateway's.
  const runtime = runtimeOfCapsule(capsuleId);
  const gateway = useStudio((s) => s.gateways[runtime ?? '']?.gateway ?? null);
  const exposure = useStudio((s) => exposureOf(s, capsuleId) ?? null);
  const [s, setS] = useState<Local>({ fresh: null, log: [], busy: false, error: null });
  const patch = (p: Partial<Local>) => setS((x) => ({ ...x, ...p }));

  const refresh = useCallback(async () => {
    try {
      await useStudio.getState().loadExposures(runtime);
      const log = await invoke('expose.accessLog', { capsuleId, limit: LOG_LIMIT });
      setS((x) => ({ ...x, log, error: null }));
    } catch (err) {
      patch({ error: describeError(err) });
    }
  }, [capsuleId, runtime]);

  useEffect(() => {
    setS({ fresh: null, log: [], busy: false, error: null });
    void refresh();
    return onCoreEvent('exposure.accessed', ({ entry, runtime: from }) => {
      if (from === runtime && entry.capsule === capsuleId)
        setS((x) => ({ ...x, log: [...x.log, entry].slice(-LOG_LIMIT) }));
    });
  }, [capsuleId, runtime, refresh]);

  const run = async (work: () => Promise<void>) => {
    patch({ busy: true, error: null });
    try {
      await work();
    } catch (err) {
      patch({ error: describeError(err) });
    } finally {
      patch({ busy: false });
      void refresh();
    }
  };

  return {
    ...s,
    gateway,
    exposure,
    // The token shown once shows only while it is the exposure's current token (a rotation or a
    // revoke elsewhere hides it).
    fresh: s.fresh && exposure?.tokenId === s.fresh.exposure.tokenId ? s.fresh : null,
    runtime,
    enable: (compat03: boolean) =>
      run(async () => patch({ fresh: await invoke('expose.enable', { capsuleId, compat03 }) })),
    disable: () => run(async () => (await invoke('expose.disable', { capsuleId }), patch({ fresh: null }))),
    rotate: () => run(async () => patch({ fresh: await invoke('expose.rotate', { capsuleId }) })),
    setCompat03: (on: boolean) => run(async () => void (await invoke('expose.update', { capsuleId, compat03: on }))),
    configure: (input: { host?: string; port?: number; publicOrigin?: string | null }) =>
      run(async () => void (await invoke('gateway.configure', runtime ? { ...input, runtime } : input))),
    loadCard: async () => {
      try {
        return (await invoke('expose.card', { capsuleId })).card;
      } catch (err) {
        patch({ error: describeError(err) });
        return null;
      }
    },
    dismissToken: () => patch({ fresh: null }),
  };
}
