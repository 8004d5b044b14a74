import { useCallback, useEffect, useState } from 'react';
import type { AccessEntryView, ExposeAnswer, ExposureView, GatewayView } from '../../../src-shared/contract';
import { describeError, invoke, onCoreEvent } from '../../store';

// The Expose panel's state: the gateway, this capsule's exposure, its live access log, and the
// one-time answer (token + curl) held only while the panel shows it, never in the shared store.

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

/** The attached runtime a capsule id names (`@host-b/writer`), or undefined for this Studio's own. */
const runtimeOf = (capsuleId: string) => /^@([a-z0-9][a-z0-9-]{0,31})\//.exec(capsuleId)?.[1];

export function useExpose(capsuleId: string) {
  // A runtime's capsule is exposed by that host's gateway: its list, its live calls and its
  // settings come from and go to there. Events tagged with a runtime are that host's gateway's;
  // untagged ones are this Studio's own: each panel takes only its gateway's.
  const runtime = runtimeOf(capsuleId);
  const [s, setS] = useState<ExposeState>({
    gateway: null,
    exposure: null,
    fresh: null,
    log: [],
    busy: false,
    error: null,
  });
  const patch = (p: Partial<ExposeState>) => setS((x) => ({ ...x, ...p }));

  const refresh = useCallback(async () => {
    try {
      const list = await invoke('expose.list', runtime ? { runtime } : {});
      const log = await invoke('expose.accessLog', { capsuleId, limit: LOG_LIMIT });
      setS((x) => ({
        ...x,
        gateway: list.gateway,
        exposure: list.exposures.find((e) => e.capsuleId === capsuleId) ?? null,
        log,
        error: null,
      }));
    } catch (err) {
      patch({ error: describeError(err) });
    }
  }, [capsuleId, runtime]);

  useEffect(() => {
    setS({ gateway: null, exposure: null, fresh: null, log: [], busy: false, error: null });
    void refresh();
    const offs = [
      onCoreEvent('exposure.accessed', ({ entry, runtime: from }) => {
        if (from === runtime && entry.capsule === capsuleId)
          setS((x) => ({ ...x, log: [...x.log, entry].slice(-LOG_LIMIT) }));
      }),
      onCoreEvent('exposure.changed', ({ gateway, exposures, runtime: from }) => {
        if (from !== runtime) return;
        const mine = exposures.find((e) => e.capsuleId === capsuleId) ?? null;
        // The token shown once stays only while it is the exposure's current token.
        setS((x) => ({
          ...x,
          gateway,
          exposure: mine,
          fresh: x.fresh && mine?.tokenId === x.fresh.exposure.tokenId ? x.fresh : null,
        }));
      }),
    ];
    return () => offs.forEach((off) => off());
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
