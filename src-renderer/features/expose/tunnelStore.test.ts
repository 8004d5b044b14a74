import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName, EventName, TunnelAccessView, TunnelView } from '../../../src-shared/contract';
import {
  CALLS_LIMIT,
  createTunnelStore,
  emptyTunnels,
  foldAccess,
  foldTunnels,
  type TunnelCore,
  type TunnelStore,
} from './tunnelStore';
import { expiresIn, throughTunnel, tunnelCallRow } from './tunnelText';

// The "Reach from anywhere" store: the list from tunnel.list/tunnel.changed, the live calls from
// tunnel.accessed, one copy for every panel; the link from tunnel.create goes to the caller only.

const LINK = 'https://t.example.test/?t=v1.secret-link-token';
const view = (p: Partial<TunnelView> = {}): TunnelView => ({
  id: 'tun_0123456789ab',
  provider: 'cloudflared',
  publicUrl: 'https://t.example.test',
  expiresAt: '2030-01-01T00:00:00.000Z',
  state: 'open',
  calls: 0,
  refused: 0,
  ...p,
});
const access = (outcome: string, p: Partial<TunnelAccessView> = {}): TunnelAccessView => ({
  time: '2030-01-01T00:00:00.000Z',
  method: 'POST /a2a/capsules/writer/',
  status: 200,
  outcome,
  durationMs: 2,
  ...p,
});

/** A core with tunnel commands that behave like the real one, emitting its events. */
function fakeTunnelCore(fail?: string) {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: CommandName[] = [];
  let tunnels: TunnelView[] = [];
  const emit = (event: EventName, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  const changed = () => emit('tunnel.changed', { tunnels });
  const core: TunnelCore & { emit: typeof emit; calls: CommandName[]; listeners: number } = {
    calls,
    emit,
    get listeners() {
      return [...listeners.values()].reduce((n, s) => n + s.size, 0);
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (p: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (p: unknown) => void);
    },
    async invoke(cmd, input) {
      calls.push(cmd);
      const id = (input as { id?: string } | undefined)?.id;
      switch (cmd) {
        case 'tunnel.list':
          return { tunnels } as never;
        case 'tunnel.create':
          if (fail) throw Object.assign(new Error(fail), { code: 'launch_failed' });
          tunnels = [view()];
          return { tunnel: tunnels[0], link: LINK } as never; // its tunnel.changed comes later
        case 'tunnel.revoke':
          tunnels = tunnels.map((t) => (t.id === id ? { ...t, state: 'revoked' as const } : t));
          changed();
          return undefined as never;
        case 'tunnel.stop':
          tunnels = tunnels.filter((t) => t.id !== id);
          changed();
          return undefined as never;
        default:
          throw new Error(`not in this fake: ${cmd}`);
      }
    },
  };
  return core;
}

let core: ReturnType<typeof fakeTunnelCore>;
let t: TunnelStore;
beforeEach(() => {
  core = fakeTunnelCore();
  t = createTunnelStore(core);
});
afterEach(() => t.dispose());

describe('tunnel store', () => {
  it('opens a tunnel, hands the link to the caller only, and follows its calls live', async () => {
    const created = await t.create({ provider: 'cloudflared', ttl: '1h' });
    expect(created?.link).toBe(LINK);
    expect(t.store.getState().tunnels).toEqual([view()]);
    core.emit('tunnel.changed', { tunnels: [view()] });
    expect(t.store.getState().tunnels).toHaveLength(1);

    core.emit('tunnel.accessed', { id: view().id, entry: access('link_exchanged', { method: 'GET /', status: 303 }) });
    core.emit('tunnel.accessed', { id: view().id, entry: access('forwarded') });
    core.emit('tunnel.accessed', { id: view().id, entry: access('no_link', { status: 401 }) });
    const s = t.store.getState();
    expect(s.calls[view().id].map((c) => c.outcome)).toEqual(['link_exchanged', 'forwarded', 'no_link']);
    expect(s.tunnels[0]).toMatchObject({ calls: 1, refused: 1 });
    expect(JSON.stringify(s)).not.toContain('secret-link-token');
  });

  it('revoke and stop follow the core; a stopped tunnel takes its calls with it', async () => {
    await t.create({});
    core.emit('tunnel.accessed', { id: view().id, entry: access('forwarded') });
    await t.revoke(view().id);
    expect(t.store.getState().tunnels[0].state).toBe('revoked');
    await t.stop(view().id);
    expect(t.store.getState()).toMatchObject({ tunnels: [], calls: {}, busy: false, error: null });
    expect(core.calls).toEqual(['tunnel.create', 'tunnel.revoke', 'tunnel.stop']);
  });

  it('a provider that cannot start: one line in error, nothing listed, and the next try clears it', async () => {
    const failing = fakeTunnelCore(
      'The tunnel could not open, nothing is exposed: ngrok needs an authtoken: set NGROK_AUTHTOKEN',
    );
    const f = createTunnelStore(failing);
    expect(await f.create({ provider: 'ngrok' })).toBeNull();
    expect(f.store.getState()).toMatchObject({
      tunnels: [],
      busy: false,
      error: expect.stringContaining('ngrok needs an authtoken'),
    });
    await f.load();
    f.clearError();
    expect(f.store.getState().error).toBeNull();
    f.dispose();
    expect(failing.listeners).toBe(0);
  });

  it('loads the list the core holds (a panel opening after tunnels were made)', async () => {
    await core.invoke('tunnel.create', {});
    await t.load();
    expect(t.store.getState().tunnels.map((x) => x.id)).toEqual([view().id]);
  });
});

describe('tunnel folds', () => {
  it('keep a bounded list of calls and the identity of what did not change', () => {
    let s = foldTunnels(emptyTunnels(), [view()]);
    for (let i = 0; i < CALLS_LIMIT + 5; i++) s = foldAccess(s, view().id, access('forwarded', { durationMs: i }));
    expect(s.calls[view().id]).toHaveLength(CALLS_LIMIT);
    expect(s.calls[view().id].at(-1)?.durationMs).toBe(CALLS_LIMIT + 4);
    const same = foldTunnels(s, [view({ calls: 9 })]);
    expect(same.calls).toBe(s.calls);
  });
});

describe('tunnel words', () => {
  it('count down to the expiry', () => {
    const at = Date.parse('2030-01-01T00:00:00.000Z');
    expect(expiresIn('2030-01-01T00:00:00.000Z', at - (23 * 3600 + 59 * 60 + 5) * 1000)).toBe('expires in 23 h 59 min');
    expect(expiresIn('2030-01-01T00:00:00.000Z', at - 3 * 86_400_000)).toBe('expires in 3 d 0 h');
    expect(expiresIn('2030-01-01T00:00:00.000Z', at - 90_000)).toBe('expires in 1 min 30 s');
    expect(expiresIn('2030-01-01T00:00:00.000Z', at - 4000)).toBe('expires in 4 s');
    expect(expiresIn('2030-01-01T00:00:00.000Z', at)).toBe('expired');
  });
  it('say what happened to a call, and where a capsule is through the tunnel', () => {
    expect(tunnelCallRow(access('revoked', { status: 401, method: 'GET /a2a/capsules/writer/' }))).toMatchObject({
      request: 'GET /a2a/capsules/writer/',
      outcome: 'refused: link revoked (401, 2 ms)',
      refused: true,
    });
    expect(tunnelCallRow(access('forwarded')).refused).toBe(false);
    expect(throughTunnel('https://t.example.test', 'http://127.0.0.1:4100/a2a/capsules/writer/')).toBe(
      'https://t.example.test/a2a/capsules/writer/',
    );
  });
});
