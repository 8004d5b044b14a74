import { resolve } from 'node:path';
import {
  createGateway,
  gatewayDataDir,
  isLoopback,
  removeGatewayRecord,
  urlResolver,
  writeGatewayRecord,
  type Gateway,
} from '../gateway';
import { createShutdown } from '../shell/shutdown';
import { intOption } from './args';
import { UserError } from './errors';
import { layout } from './home';

// `capsule serve --capsule-url NAME=URL …`: the gateway alone, for capsules whose doors run
// elsewhere (on a cluster, each capsule's Service). It launches nothing; exposures come from the
// data folder's exposures.json as always. Runs until SIGINT/SIGTERM.

export function publicOriginOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new UserError(`--public-origin must be an http(s) origin, not "${value}"`, 2);
  return new URL(value).origin;
}

/** `NAME=URL` options as a table; a name given twice is an error. */
export function capsuleUrls(texts: string[]): Map<string, string> {
  const urls = new Map<string, string>();
  for (const text of texts) {
    const at = text.indexOf('=');
    const name = text.slice(0, at);
    const url = text.slice(at + 1);
    if (at < 1 || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new UserError(`--capsule-url takes NAME=http(s)://host:port, not "${text}"`, 2);
    if (urls.has(name)) throw new UserError(`--capsule-url names ${name} twice`, 2);
    urls.set(name, url);
  }
  return urls;
}

interface GatewayValues {
  'gateway-port'?: string;
  host?: string;
  'public-origin'?: string;
  'trust-proxy'?: boolean;
  data?: string;
}

/**
 * What every gateway `serve` starts says and records: its run record (for `capsule expose`), a
 * warning when it binds beyond loopback, its URL and capsules on stdout, each access on stderr.
 * close() undoes all of it and closes the gateway.
 */
export function announceGateway(
  gateway: Gateway,
  host: string,
  dataDir: string,
  listCapsules: () => void,
): { close(): Promise<void> } {
  writeGatewayRecord(dataDir, {
    pid: process.pid,
    url: gateway.url,
    host: gateway.host,
    port: gateway.port,
    started_at: new Date().toISOString(),
  });
  if (!isLoopback(host))
    process.stderr.write(
      `capsule: warning: the gateway binds ${host}: other machines can reach it (every call still needs a token)\n`,
    );
  process.stdout.write(
    `gateway: ${gateway.url}\nmcp: ${gateway.urlsOf('').mcp} (MCP clients: Streamable HTTP, a capsule's token lists that capsule as a tool)\n`,
  );
  listCapsules();
  const unsubscribe = gateway.onAccess((e) =>
    process.stderr.write(
      `access: ${e.time} ${e.remote} ${e.tokenId ?? '-'} ${e.capsule ?? '-'} ${e.method} ${e.status} ${e.outcome} ${e.durationMs}ms\n`,
    ),
  );
  return {
    async close() {
      unsubscribe();
      removeGatewayRecord(dataDir);
      await gateway.close();
    },
  };
}

export async function serveGateway(values: GatewayValues, urls: Map<string, string>): Promise<number> {
  const port = intOption('gateway-port', values['gateway-port'], 65535);
  const publicOrigin = publicOriginOption(values['public-origin']);
  const host = values.host ?? '127.0.0.1';
  const dataDir = resolve(values.data ?? gatewayDataDir(layout().home));
  const gateway = await createGateway({
    host,
    ...(port !== undefined ? { port } : {}),
    ...(publicOrigin ? { publicOrigin } : {}),
    trustProxy: values['trust-proxy'] ?? false,
    dataDir,
    resolveCapsule: urlResolver(urls),
  }).catch((err: Error) => {
    throw new UserError(`the gateway cannot listen on ${host}:${port ?? 0}: ${err.message}`);
  });
  const announced = announceGateway(gateway, host, dataDir, () => {
    for (const [name, url] of urls)
      process.stdout.write(`${gateway.exposures.get(name) ? 'exposed' : 'not exposed'}: ${name} -> ${url}\n`);
  });
  // Ctrl-C or SIGTERM closes the gateway (no session runs here); a second one forces it.
  return new Promise<number>((exit) => {
    createShutdown({
      stop: announced.close,
      exit,
      log: (line) => process.stderr.write(`capsule: ${line}\n`),
    }).handleSignals();
  });
}
