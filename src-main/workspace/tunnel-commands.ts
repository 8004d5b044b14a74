import { CoreError, type TunnelAccessView, type TunnelView } from '../../src-shared/contract';
import { readTunnels, tunnelState } from '../gateway';
import { openTunnel, parseTtl, providerNamed, ProviderError, type Tunnel } from '../tunnel';
import type { StudioContext } from './context';
import type { ExposeService } from './expose-commands';
import type { Handlers } from './handlers';

// The Studio's "Reach from anywhere": tunnels in front of its own gateway, hosted in the core's
// process (they end with it). The link is in the answer of tunnel.create only; the list and the
// events carry the public URL, the expiry, the state and the calls through it, never the link.

type TunnelCommand = 'tunnel.list' | 'tunnel.create' | 'tunnel.revoke' | 'tunnel.stop';

export interface TunnelService {
  handlers: Pick<Handlers, TunnelCommand>;
  dispose(): Promise<void>;
}

export interface TunnelDeps {
  expose: Pick<ExposeService, 'gateway' | 'dataDir'>;
  /** The environment a provider reads secrets from (${VAR}: the shell's and the Studio's secrets). */
  env(): Record<string, string | undefined>;
}

/** Where this process reaches its own gateway (it may listen on every interface, or publish another origin). */
function reachable(g: { host: string; port: number }): string {
  const host = g.host === '0.0.0.0' || g.host === '::' ? '127.0.0.1' : g.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${g.port}`;
}

export function createTunnelService(ctx: StudioContext, deps: TunnelDeps): TunnelService {
  const open = new Map<string, { tunnel: Tunnel; calls: number; refused: number }>();

  const view = (id: string): TunnelView | undefined => {
    const t = open.get(id);
    const r = readTunnels(deps.expose.dataDir).find((x) => x.id === id);
    if (!t || !r) return undefined;
    const state = tunnelState(r);
    return {
      id,
      provider: r.provider,
      publicUrl: r.publicUrl,
      expiresAt: r.expiresAt,
      state: state === 'gone' ? 'stopping' : state,
      calls: t.calls,
      refused: t.refused,
    };
  };
  const list = () => [...open.keys()].map(view).filter((v): v is TunnelView => !!v);
  const changed = () => ctx.emit('tunnel.changed', { tunnels: list() });
  const mine = (id: string) => {
    const t = open.get(id);
    if (!t) throw new CoreError('not_found', `no tunnel ${id} in this Studio`);
    return t.tunnel;
  };

  return {
    handlers: {
      'tunnel.list': () => ({ tunnels: list() }),
      async 'tunnel.create'(args) {
        const gateway = await deps.expose.gateway();
        const provider = ctx.ports.tunnelProvider?.(args?.provider) ?? providerNamed(args?.provider);
        let tunnel: Tunnel;
        try {
          tunnel = await openTunnel({
            dataDir: deps.expose.dataDir,
            gatewayUrl: reachable(gateway),
            provider,
            ttlMs: parseTtl(args?.ttl ?? '24h'),
            env: deps.env(),
            onAccess: (e) => {
              const entry = open.get(tunnel.id);
              if (entry) {
                if (e.outcome === 'forwarded') entry.calls++;
                else if (e.outcome !== 'link_exchanged') entry.refused++;
              }
              const { remote: _r, ...shown } = e;
              ctx.emit('tunnel.accessed', { id: tunnel.id, entry: shown satisfies TunnelAccessView });
            },
          });
        } catch (err) {
          throw new CoreError(
            'launch_failed',
            err instanceof ProviderError
              ? `The tunnel could not open, nothing is exposed: ${err.message}`
              : (err as Error).message,
          );
        }
        open.set(tunnel.id, { tunnel, calls: 0, refused: 0 });
        void tunnel.closed.then((why) => {
          open.delete(tunnel.id);
          ctx.emit('notice.raised', {
            level: why === 'stopped' ? 'info' : 'warning',
            message: `Tunnel ${tunnel.publicUrl} closed: ${why}`,
          });
          changed();
        });
        changed();
        return { tunnel: view(tunnel.id)!, link: tunnel.link };
      },
      'tunnel.revoke'({ id }) {
        mine(id).revoke();
        changed();
      },
      async 'tunnel.stop'({ id }) {
        await mine(id).close('stopped');
      },
    },
    async dispose() {
      await Promise.allSettled([...open.values()].map((t) => t.tunnel.close('the Studio closed')));
    },
  };
}
