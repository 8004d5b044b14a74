import type { RuntimeView } from '../../../src-shared/contract';

// The shape of the store's runtimes slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

export interface RuntimesSlice {
  runtimes: RuntimeView[];
  /** The Attach runtime… dialog is open. */
  attachOpen: boolean;
  openAttach(): void;
  closeAttach(): void;
  setRuntimes(runtimes: RuntimeView[]): void;
  loadRuntimes(): Promise<void>;
  /** Attaches a runtime; answers the reason it could not (a refused token, an unreachable URL) or null. */
  attachRuntime(url: string, token: string, label?: string): Promise<string | null>;
  detachRuntime(id: string): Promise<void>;
  /** An edge across hosts waiting for the worker's address as the orchestrator's host reaches it. */
  addressAsk: { source: string; target: string; message: string; port?: number } | null;
  /** Draws an edge between capsules of different runtimes (the core writes each half on its host); asks for the address when it cannot be derived. */
  connectAcross(source: string, target: string, address?: string): Promise<void>;
  cancelAddress(): void;
}

/** The actions whose code loads on first use (runtimeActions.ts, see lazyActions.ts). */
export const RUNTIME_ACTIONS = ['attachRuntime', 'connectAcross', 'detachRuntime'] as const;
