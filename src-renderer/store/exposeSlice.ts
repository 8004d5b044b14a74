import type { ExposureView } from '../../src-shared/contract';
import { invoke } from './client';
import type { SliceCreator, StudioState } from './types';
import type { ExposeSlice } from './state/expose';
export type { ExposeSlice, GatewayExposures } from './state/expose';

// Which capsules the gateways expose to outside callers (never their tokens). This Studio's own
// gateway is read on each (re)connect; an attached runtime's when its link comes up (the runtimes'
// frames, features/runtimes) or its capsule's Expose panel opens; all follow exposure.changed after that.

/**
 * The capsule's exposure, from the gateway that exposes it, or undefined when it is not exposed.
 * An attached runtime's capsule ids carry its name (`@host-b/writer`), so no two gateways list the same id.
 */
export function exposureOf(s: Pick<StudioState, 'gateways'>, capsuleId: string): ExposureView | undefined {
  for (const k in s.gateways) {
    const e = s.gateways[k].exposures.find((x) => x.capsuleId === capsuleId);
    if (e) return e;
  }
  return undefined;
}

export const createExposeSlice: SliceCreator<ExposeSlice> = (set, get) => ({
  gateways: {},
  setExposures: ({ gateway, exposures, runtime }) =>
    set((s) => ({ gateways: { ...s.gateways, [runtime ?? '']: { gateway, exposures } } })),
  loadExposures: (runtime) =>
    invoke('expose.list', runtime ? { runtime } : {}).then(
      (list) => get().setExposures({ ...list, runtime }),
      () => undefined, // no workspace yet, or the runtime's link is down: what was known stays
    ),
});
