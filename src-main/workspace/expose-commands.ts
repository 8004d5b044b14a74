import { join } from 'node:path';
import {
  CoreError,
  type CommandArgs,
  type ExposeAnswer,
  type ExposureView,
  type GatewayView,
} from '../../src-shared/contract';
import {
  createExposureStore,
  createGateway,
  curlExample,
  isLoopback,
  mcpClientConfig,
  readSettings,
  sessionCapsule,
  writeSettings,
  type ExposureInfo,
  type ExposureStore,
  type Gateway,
  type GatewaySettings,
  type ResolvedCapsule,
} from '../gateway';
import type { StudioContext } from './context';
import type { Handlers } from './handlers';

// The Studio's side of the gateway: one gateway per Studio (data in <userData>/gateway), started
// when a capsule is first exposed (or at start when exposures exist), restarted on configure.
// Capsules are exposed by formation id and resolved to their running session at each call.

type ExposeCommand =
  | 'gateway.status'
  | 'gateway.configure'
  | 'expose.list'
  | 'expose.enable'
  | 'expose.disable'
  | 'expose.rotate'
  | 'expose.update'
  | 'expose.card'
  | 'expose.accessLog';

export interface ExposeService {
  handlers: Pick<Handlers, ExposeCommand>;
  /** The formation ids of the exposed capsules (an export deploys the gateway for them). */
  exposedCapsules(): string[];
  /** The gateway, started if it was not (a tunnel forwards to it). */
  gateway(): Promise<Gateway>;
  /** The gateway's data folder (exposures, access log, tunnels). */
  readonly dataDir: string;
  dispose(): Promise<void>;
}

export interface ExposeOptions {
  /**
   * Which session serves an exposed capsule to callers; by default the Studio's running one
   * (`draft`). The core passes the published version's session here (src-main/versions).
   */
  served?(id: string, draft: () => ResolvedCapsule | undefined): Promise<ResolvedCapsule | undefined>;
}

export function createExposeService(ctx: StudioContext, opts: ExposeOptions = {}): ExposeService {
  const dataDir = join(ctx.config.userDataDir, 'gateway');
  let settings: GatewaySettings = readSettings(dataDir);
  let gateway: Gateway | undefined;
  let starting: Promise<Gateway> | undefined;
  let error: string | undefined;
  let standalone: ExposureStore | undefined;
  const offs: (() => void)[] = [];

  const session = (id: string) => {
    try {
      return ctx.sessions.session(id);
    } catch {
      return undefined;
    }
  };
  const store = (): ExposureStore => gateway?.exposures ?? (standalone ??= createExposureStore(dataDir));

  const start = (): Promise<Gateway> => {
    if (gateway) return Promise.resolve(gateway);
    starting ??= createGateway({
      ...settings,
      dataDir,
      resolveCapsule: (id) => {
        const draft = () => {
          const s = session(id);
          return s && sessionCapsule(s);
        };
        return opts.served ? opts.served(id, draft) : draft();
      },
    }).then(
      (g) => {
        gateway = g;
        error = undefined;
        standalone?.dispose();
        standalone = undefined;
        offs.push(g.onAccess((entry) => ctx.emit('exposure.accessed', { entry })));
        offs.push(g.exposures.onRevoked(() => changed()));
        starting = undefined;
        return g;
      },
      (err: NodeJS.ErrnoException) => {
        starting = undefined;
        error = `The gateway cannot listen on ${settings.host}:${settings.port}: ${err.message}`;
        throw new CoreError(err.code === 'EADDRINUSE' ? 'port_taken' : 'launch_failed', error);
      },
    );
    return starting;
  };
  const stop = async () => {
    offs.splice(0).forEach((off) => off());
    const g = gateway;
    gateway = undefined;
    await g?.close();
  };

  const status = (): GatewayView => ({
    running: !!gateway,
    ...(gateway ? { url: gateway.url, port: gateway.port, signingKid: gateway.signer.kid } : { port: settings.port }),
    host: settings.host,
    ...(settings.publicOrigin ? { publicOrigin: settings.publicOrigin } : {}),
    trustProxy: settings.trustProxy,
    loopback: isLoopback(settings.host),
    ...(error ? { error } : {}),
  });
  const view = (e: ExposureInfo): ExposureView => {
    const urls = gateway?.urlsOf(e.capsule) ?? { url: '', card: '', mcp: '' };
    return {
      capsuleId: e.capsule,
      tokenId: e.tokenId,
      compat03: e.compat03,
      createdAt: e.createdAt,
      ...(e.rotatedAt ? { rotatedAt: e.rotatedAt } : {}),
      url: urls.url,
      cardUrl: urls.card,
      mcpUrl: urls.mcp,
      running: !!session(e.capsule),
    };
  };
  const list = () => store().list().map(view);
  const changed = () => ctx.emit('exposure.changed', { gateway: status(), exposures: list() });
  const answer = (e: ExposureInfo, token: string): ExposeAnswer => {
    const v = view(e);
    return {
      exposure: v,
      token,
      curl: curlExample(v.url, token, { accepts: !!session(e.capsule)?.manifest.accepts }),
      mcpConfig: mcpClientConfig(v.mcpUrl, token),
    };
  };
  const known = (id: string) => ctx.workspace().capsule(id); // throws a CoreError naming an unknown capsule
  const exposed = (id: string) => {
    if (!store().get(id)) throw new CoreError('not_found', `${id} is not exposed`);
  };

  // Exposures made in an earlier run keep working after a restart.
  if (store().list().length > 0) start().catch(() => changed());

  const handlers: ExposeService['handlers'] = {
    'gateway.status': () => status(),
    async 'gateway.configure'(args: CommandArgs<'gateway.configure'>) {
      const { publicOrigin, ...rest } = args;
      settings = {
        ...settings,
        ...rest,
        ...(publicOrigin === null
          ? { publicOrigin: undefined }
          : publicOrigin
            ? { publicOrigin: new URL(publicOrigin).origin }
            : {}),
      };
      writeSettings(dataDir, settings);
      error = undefined;
      const wasRunning = !!gateway || store().list().length > 0;
      await stop();
      if (wasRunning) await start().catch(() => undefined);
      changed();
      return status();
    },
    'expose.list': () => ({ gateway: status(), exposures: list() }),
    async 'expose.enable'({ capsuleId, compat03 }) {
      known(capsuleId);
      await start();
      if (store().get(capsuleId))
        throw new CoreError('conflict', `${capsuleId} is already exposed; rotate its token to get a new one`);
      const { exposure, token } = store().enable(capsuleId, { compat03 });
      changed();
      return answer(exposure, token);
    },
    async 'expose.disable'({ capsuleId }) {
      exposed(capsuleId);
      store().revoke(capsuleId);
      changed();
    },
    async 'expose.rotate'({ capsuleId }) {
      exposed(capsuleId);
      await start();
      const { exposure, token } = store().rotate(capsuleId);
      changed();
      return answer(exposure, token);
    },
    'expose.update'({ capsuleId, compat03 }) {
      exposed(capsuleId);
      const v = view(store().setCompat03(capsuleId, compat03));
      changed();
      return v;
    },
    async 'expose.card'({ capsuleId }) {
      exposed(capsuleId);
      const g = await start();
      return { card: (await g.cardOf(capsuleId)) ?? null };
    },
    'expose.accessLog'({ capsuleId, limit }) {
      const entries = gateway?.access.recent() ?? [];
      const mine = capsuleId ? entries.filter((e) => e.capsule === capsuleId) : entries;
      return mine.slice(-(limit ?? 200));
    },
  };

  return {
    handlers,
    exposedCapsules: () =>
      store()
        .list()
        .map((e) => e.capsule),
    gateway: start,
    dataDir,
    async dispose() {
      await stop();
      standalone?.dispose();
    },
  };
}
