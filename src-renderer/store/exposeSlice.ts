import type { ExposureView } from '../../src-shared/contract';
import { invoke } from './client';
import type { SliceCreator, StudioState } from './types';
import type { ExposeSlice } from './state/expose';
export type { ExposeSlice, GatewayExposures } from './state/expose';

// Which capsules the gateways expose to outside callers (never their tokens). This Studio's own
// gateway is read on each (re)connect; an attached runtime's when its capsule's Expose panel opens;
// both follow exposure.changed after that.

/** The attached runtime a capsule id names (`@host-b/writer`), or undefined for this Studio's own. */
export const runtimeOfCapsule = (capsuleId: string): string | undefined =>
  /^@([a-z0-9][a-z0-9-]{0,31})\//.exec(capsuleId)?.[1];

/** The capsule's exposure, from the gateway that exposes it, or undefined when it is not exposed. */
export function exposureOf(s: Pick<StudioState, 'gateways'>, capsuleId: string): ExposureView | undefined {
  return s.gateways[runtimeOfCapsule(capsuleId) ?? '']?.exposures.find((e) => e.capsuleId === capsuleId);
}

export const createExposeSlice: SliceCreator<ExposeSlice> = (set) => ({
  gateways: {},
  setExposures: ({ gateway, exposures, runtime }) =>
    set((s) => ({ gateways: { ...s.gateways, [runtime ?? '']: { gateway, exposures } } })),
  async loadExposures(runtime) {
    try {
      const list = await invoke('expose.list', runtime ? { runtime } : {});
      set((s) => ({ gateways: { ...s.gateways, [runtime ?? '']: list } }));
    } catch {
      // No workspace yet, or the runtime's link is down: what was known stays.
    }
  },
});
