import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  EventName,
  EventPayload,
  TunnelAccessView,
  TunnelCreated,
  TunnelView,
} from '../../../src-shared/contract';
import { describeError, invoke, onCoreEvent } from '../../store';

// "Reach from anywhere": the tunnels in front of this Studio's gateway and the calls through them.
// One fact in one place: the list comes from tunnel.list and tunnel.changed, the calls from
// tunnel.accessed, and every view (each capsule's Expose panel) derives from this store. It lives
// with the expose feature (loaded when the panel first opens), not in the first screen's store.
// The link with its token is never kept here: create() hands it to the caller, which shows it once.

/** Calls kept per tunnel for the live list (newest last). */
export const CALLS_LIMIT = 50;

export interface TunnelsState {
  tunnels: TunnelView[];
  /** The calls seen through each tunnel since the panel first loaded, by tunnel id. */
  calls: Record<string, TunnelAccessView[]>;
  /** A command is under way (create, revoke, stop). */
  busy: boolean;
  /** The last command's failure, one line (a provider that could not start says why). */
  error: string | null;
}

export const emptyTunnels = (): TunnelsState => ({ tunnels: [], calls: {}, busy: false, error: null });

/** A new list: the calls of tunnels that are gone go with them. */
export function foldTunnels(s: TunnelsState, tunnels: TunnelView[]): TunnelsState {
  const live = new Set(tunnels.map((t) => t.id));
  const kept = Object.keys(s.calls).every((id) => live.has(id))
    ? s.calls
    : Object.fromEntries(Object.entries(s.calls).filter(([id]) => live.has(id)));
  return { ...s, tunnels, calls: kept };
}

/** One call at a tunnel's guard: appended (bounded), and the tunnel's counters follow it. */
export function foldAccess(s: TunnelsState, id: string, entry: TunnelAccessView): TunnelsState {
  const calls = { ...s.calls, [id]: [...(s.calls[id] ?? []), entry].slice(-CALLS_LIMIT) };
  const counted = entry.outcome === 'forwarded' ? 'calls' : entry.outcome === 'link_exchanged' ? null : 'refused';
  const tunnels = counted ? s.tunnels.map((t) => (t.id === id ? { ...t, [counted]: t[counted] + 1 } : t)) : s.tunnels;
  return { ...s, tunnels, calls };
}

/** What the store needs from the core: its commands and its events. */
export interface TunnelCore {
  invoke<K extends CommandName>(cmd: K, input: CommandInput<K>): Promise<CommandOutput<K>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export interface TunnelStore {
  store: StoreApi<TunnelsState>;
  /** Reads the list again (the panel opening, a reconnect). */
  load(): Promise<void>;
  /** Opens a tunnel; answers the link (shown once by the caller), or null with `error` set. */
  create(input: CommandInput<'tunnel.create'>): Promise<TunnelCreated | null>;
  revoke(id: string): Promise<void>;
  stop(id: string): Promise<void>;
  clearError(): void;
  dispose(): void;
}

export function createTunnelStore(core: TunnelCore): TunnelStore {
  const store = createStore<TunnelsState>(() => emptyTunnels());
  const set = (f: (s: TunnelsState) => TunnelsState) => store.setState(f(store.getState()), true);
  const offs = [
    core.on('tunnel.changed', ({ tunnels }) => set((s) => foldTunnels(s, tunnels))),
    core.on('tunnel.accessed', ({ id, entry }) => set((s) => foldAccess(s, id, entry))),
  ];

  const run = async <T>(work: () => Promise<T>): Promise<T | null> => {
    set((s) => ({ ...s, busy: true, error: null }));
    try {
      return await work();
    } catch (err) {
      set((s) => ({ ...s, error: describeError(err) }));
      return null;
    } finally {
      set((s) => ({ ...s, busy: false }));
    }
  };

  const load = async () => {
    try {
      const { tunnels } = await core.invoke('tunnel.list', {});
      set((s) => foldTunnels(s, tunnels));
    } catch (err) {
      set((s) => ({ ...s, error: describeError(err) }));
    }
  };

  return {
    store,
    load,
    create: (input) =>
      run(async () => {
        const created = await core.invoke('tunnel.create', input);
        // The answer may come before or after its tunnel.changed: the list holds it either way.
        set((s) =>
          s.tunnels.some((t) => t.id === created.tunnel.id) ? s : foldTunnels(s, [...s.tunnels, created.tunnel]),
        );
        return created;
      }),
    revoke: async (id) => void (await run(() => core.invoke('tunnel.revoke', { id }))),
    stop: async (id) => void (await run(() => core.invoke('tunnel.stop', { id }))),
    clearError: () => set((s) => ({ ...s, error: null })),
    dispose: () => offs.forEach((off) => off()),
  };
}

let shared: TunnelStore | undefined;

/** The Studio's one tunnel store, listening from the first time a panel asks for it. */
export function tunnelStore(): TunnelStore {
  shared ??= createTunnelStore({ invoke, on: onCoreEvent });
  return shared;
}
