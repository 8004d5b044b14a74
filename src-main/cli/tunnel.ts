import { resolve } from 'node:path';
import {
  createGateway,
  editTunnels,
  gatewayDataDir,
  readGatewayRecord,
  readTunnels,
  runningResolver,
  tunnelState,
  type Gateway,
  type TunnelRecord,
} from '../gateway';
import {
  DEFAULT_AUTHTOKEN_VAR,
  openTunnel,
  parseTtl,
  providerNamed,
  ProviderError,
  PROVIDERS,
  type GuardEntry,
} from '../tunnel';
import { intOption, parseCommandArgs } from './args';
import { UserError } from './errors';
import { layout } from './home';
import { cliEnv } from './secrets-env';

// `capsule tunnel create|ls|revoke|stop`: reach the gateway's exposed capsules from anywhere.
// create hosts the tunnel in the foreground (the guard, the provider's engine) until Ctrl-C, its
// expiry, or `tunnel stop` from another terminal; the link is printed once. ls, revoke and stop
// work on tunnels.json in the gateway's data folder, which the hosting process watches.

export const usage = `usage: capsule tunnel create [--ttl 24h] [--provider cloudflared|ngrok] [--authtoken-env VAR] [--gateway-port N] [--data DIR]
       capsule tunnel ls [--data DIR]
       capsule tunnel revoke <id> [--data DIR]
       capsule tunnel stop <id> [--data DIR]
  create      opens a public https URL to the gateway and prints a link with a signed ?t= token, once.
              A caller opens the link once (GET <url>/?t=… answers 303 with a __Host- cookie), then
              sends that cookie and the capsule's bearer token with every request.
  --ttl       how long the tunnel lives: 90s, 30m, 24h, 7d (default 24h, at most 7d)
  --provider  cloudflared (default: a quick tunnel, no account; needs the cloudflared binary, or
              CLOUDFLARED_PATH) or ngrok (needs an authtoken in --authtoken-env, default ${DEFAULT_AUTHTOKEN_VAR})
  revoke      the link and every cookie made from it stop working at once; the tunnel stays up, refusing
  stop        tears the tunnel down
  --data      gateway data folder (default $CAPSULE_HOME/gateway)`;

const options = {
  ttl: { type: 'string' },
  provider: { type: 'string' },
  'authtoken-env': { type: 'string' },
  'gateway-port': { type: 'string' },
  data: { type: 'string' },
} as const;

const line = (e: GuardEntry) =>
  `access: ${e.time} ${e.remote} ${e.method} ${e.status} ${e.outcome} ${e.durationMs}ms\n`;

async function create(
  values: { ttl?: string; provider?: string; 'authtoken-env'?: string; 'gateway-port'?: string },
  dataDir: string,
): Promise<number> {
  const ttlMs = values.ttl === undefined ? undefined : parseTtl(values.ttl);
  if (values.ttl !== undefined && (ttlMs === undefined || ttlMs > 7 * 86_400_000 || ttlMs < 1000))
    throw new UserError(`--ttl takes a duration such as 90s, 30m, 24h or 7d (at most 7d), not "${values.ttl}"`, 2);
  const tokenVar = values['authtoken-env'];
  if (tokenVar !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenVar))
    throw new UserError(`--authtoken-env takes a variable name, not "${tokenVar}"`, 2);
  if (values.provider !== undefined && !(PROVIDERS as readonly string[]).includes(values.provider))
    throw new UserError(`--provider takes ${PROVIDERS.join(' or ')}, not "${values.provider}"`, 2);
  const port = intOption('gateway-port', values['gateway-port'], 65535);
  const provider = providerNamed(values.provider, { authtokenVar: tokenVar });

  let hosted: Gateway | undefined;
  let gatewayUrl = readGatewayRecord(dataDir)?.url;
  if (!gatewayUrl) {
    hosted = await createGateway({
      dataDir,
      ...(port !== undefined ? { port } : {}),
      resolveCapsule: runningResolver(layout().running),
    });
    gatewayUrl = hosted.url;
  }
  try {
    const tunnel = await openTunnel({
      dataDir,
      gatewayUrl,
      provider,
      ttlMs,
      env: cliEnv(),
      onAccess: (e) => process.stderr.write(line(e)),
    }).catch((err: Error) => {
      throw new UserError(
        err instanceof ProviderError ? `the tunnel could not open, nothing is exposed: ${err.message}` : err.message,
      );
    });
    process.stdout.write(
      `tunnel: ${tunnel.id} (${tunnel.provider})\npublic url: ${tunnel.publicUrl}\nexpires: ${tunnel.expiresAt}\nlink: ${tunnel.link}\n(shown once: only a hash of the tunnel's proof is kept)\n`,
    );
    process.stdout.write(
      `A caller opens the link once (it answers 303 with a cookie), then sends that cookie and the capsule's bearer token on every request, e.g. the card at ${tunnel.publicUrl}/a2a/capsules/<name>/.well-known/agent-card.json\n`,
    );
    if (hosted) process.stderr.write(`capsule: no gateway was running; hosting one at ${hosted.url} for this tunnel\n`);
    const stop = () => void tunnel.close('stopped (Ctrl-C)');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const why = await tunnel.closed;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.stderr.write(`tunnel ${tunnel.id} closed: ${why}\n`);
    return 0;
  } finally {
    await hosted?.close();
  }
}

function find(dataDir: string, id: string): TunnelRecord {
  const r = readTunnels(dataDir).find((x) => x.id === id);
  if (!r || tunnelState(r) === 'gone') throw new UserError(`no tunnel ${id} (capsule tunnel ls lists them)`);
  return r;
}

function mark(dataDir: string, id: string, patch: Partial<TunnelRecord>): void {
  editTunnels(dataDir, (rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));
}

async function stop(dataDir: string, id: string): Promise<number> {
  find(dataDir, id);
  mark(dataDir, id, { stopRequestedAt: new Date().toISOString() });
  // The hosting process sees the mark within a second, closes the tunnel and removes its record.
  for (let waited = 0; waited < 10_000; waited += 200) {
    if (!readTunnels(dataDir).some((r) => r.id === id && tunnelState(r) !== 'gone')) {
      process.stdout.write(`stopped: ${id}\n`);
      return 0;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new UserError(`tunnel ${id} was asked to stop but its process has not closed it within 10 s`);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('tunnel', argv, options, usage);
  const [sub, id, ...rest] = positionals;
  const dataDir = resolve(values.data ?? gatewayDataDir(layout().home));
  const needsId = sub === 'revoke' || sub === 'stop';
  if (
    !sub ||
    !['create', 'ls', 'revoke', 'stop'].includes(sub) ||
    rest.length > 0 ||
    (needsId ? !id : id !== undefined)
  )
    throw new UserError(usage, 2);
  switch (sub) {
    case 'create':
      return create(values, dataDir);
    case 'ls': {
      const rows = readTunnels(dataDir);
      if (rows.length === 0) process.stdout.write('no tunnels\n');
      for (const r of rows)
        process.stdout.write(
          `${r.id}  ${tunnelState(r).padEnd(8)} ${r.provider.padEnd(11)} ${r.publicUrl}  expires ${r.expiresAt}  pid ${r.pid}\n`,
        );
      return 0;
    }
    case 'revoke':
      find(dataDir, id);
      mark(dataDir, id, { revokedAt: new Date().toISOString() });
      process.stdout.write(
        `revoked: ${id} (its link and cookies no longer work; capsule tunnel stop ${id} tears it down)\n`,
      );
      return 0;
    default:
      return stop(dataDir, id);
  }
}
