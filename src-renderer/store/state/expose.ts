import type { ExposureView, GatewayView } from '../../../src-shared/contract';

// The shape of the store's expose slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** One gateway as exposure.changed or expose.list last told it: where it listens and what it exposes. */
export interface GatewayExposures {
  gateway: GatewayView;
  exposures: ExposureView[];
}

export interface ExposeSlice {
  /**
   * Each gateway's exposures, by the runtime whose host runs it ('' for this Studio's own). The one
   * record of which capsule is exposed: the canvas node's mark, the Expose panel's badge and the
   * workspace-switch question all read it (`exposureOf`). Never a token.
   */
  gateways: Record<string, GatewayExposures>;
  /** A gateway's new list (exposure.changed, straight into the store: it changes rarely). */
  setExposures(p: GatewayExposures & { runtime?: string }): void;
  /** Reads a gateway's list (a (re)connect, an Expose panel opening). */
  loadExposures(runtime?: string): Promise<void>;
}
