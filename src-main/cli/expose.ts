import { resolve } from 'node:path';
import {
  createExposureStore,
  createGateway,
  curlExample,
  gatewayDataDir,
  mcpClientConfig,
  MCP_PATH,
  readGatewayRecord,
  runningResolver,
  type Gateway,
} from '../gateway';
import { resolveRunningSession } from '../trace';
import { intOption, parseCommandArgs } from './args';
import { UserError } from './errors';
import { layout } from './home';
import { RUNNING_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';

// `capsule expose <session|name>`: exposes a capsule through the headless gateway. It edits the
// gateway's exposures.json (a running `capsule serve` sees the change at once) and prints the
// token once, with a curl call and an MCP client's config. With no gateway running, it hosts one
// in the foreground for the sessions of this machine until Ctrl-C.

export const usage = `usage: capsule expose <session|name> [--revoke] [--rotate] [--compat-03] [--gateway-port N] [--data DIR]
  <session|name>   a running session (${RUNNING_ADDRESS_HELP}) or a capsule name / formation id
  --revoke         ends the exposure and its token at once (open streams close)
  --rotate         replaces the token (the old one stops working at once)
  --compat-03      also answer A2A 0.3 callers (message/send, tasks/get, …); off by default
  --gateway-port   port of the gateway hosted here when none runs (default 0: the OS picks)
  --data           gateway data folder (default $CAPSULE_HOME/gateway)
The token is printed once; only its SHA-256 hash is kept.
${ADDRESS_RULE_HELP}`;

const options = {
  revoke: { type: 'boolean' },
  rotate: { type: 'boolean' },
  'compat-03': { type: 'boolean' },
  'gateway-port': { type: 'string' },
  data: { type: 'string' },
} as const;

/** A session address names that session's capsule; anything else is taken as a capsule name. */
function targetName(arg: string, runDir: string): string {
  try {
    return resolveRunningSession(arg, runDir).name;
  } catch (err) {
    if (arg.startsWith('@')) throw new UserError((err as Error).message);
    return arg;
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('expose', argv, options, usage);
  if (positionals.length !== 1) throw new UserError(`expose needs one session or capsule name\n${usage}`, 2);
  if (values.revoke && values.rotate) throw new UserError('--revoke and --rotate do not go together', 2);
  const port = intOption('gateway-port', values['gateway-port'], 65535);
  const runDir = layout().running;
  const dataDir = resolve(values.data ?? gatewayDataDir(layout().home));
  const name = targetName(positionals[0], runDir);
  const store = createExposureStore(dataDir);
  try {
    if (values.revoke) {
      if (!store.revoke(name)) throw new UserError(`${name} is not exposed`);
      process.stdout.write(`revoked: ${name} (its token no longer works)\n`);
      return 0;
    }
    let token: string;
    if (values.rotate) {
      if (!store.get(name)) throw new UserError(`${name} is not exposed; expose it first`);
      token = store.rotate(name).token;
    } else {
      if (store.get(name))
        throw new UserError(`${name} is already exposed; --rotate gives it a new token, --revoke ends it`);
      token = store.enable(name, { compat03: values['compat-03'] ?? false }).token;
    }
    if (values['compat-03'] && values.rotate) store.setCompat03(name, true);

    const running = readGatewayRecord(dataDir);
    let hosted: Gateway | undefined;
    let base = running?.url;
    if (!base) {
      hosted = await createGateway({
        dataDir,
        ...(port !== undefined ? { port } : {}),
        resolveCapsule: runningResolver(runDir),
      });
      base = hosted.url;
    }
    // The trailing slash is part of the URL: A2A SDKs resolve the card path against it.
    const url = `${base}/a2a/capsules/${encodeURIComponent(name)}/`;
    const mcp = `${base}${MCP_PATH}`;
    process.stdout.write(`exposed: ${name}\ncard: ${url}.well-known/agent-card.json\nurl: ${url}\nmcp: ${mcp}\n`);
    process.stdout.write(`token: ${token}\n(shown once: only its hash is kept)\n`);
    process.stdout.write(
      `A2A clients take the url as it is, e.g. new ClientFactory().createFromUrl('${url}') with Authorization: Bearer <token> on every request.\n\n${curlExample(url, token)}\n\n`,
    );
    process.stdout.write(
      `MCP clients (Streamable HTTP) see ${name} as a tool at the mcp URL with the same token, e.g. in .mcp.json:\n${mcpClientConfig(mcp, token)}\n`,
    );
    if (!hosted) return 0;

    process.stderr.write(`capsule: no gateway was running; hosting one at ${hosted.url} until Ctrl-C\n`);
    hosted.onAccess((e) =>
      process.stderr.write(
        `access: ${e.time} ${e.remote} ${e.tokenId ?? '-'} ${e.capsule ?? '-'} ${e.method} ${e.status} ${e.outcome}\n`,
      ),
    );
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        done();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await hosted.close();
    return 0;
  } finally {
    store.dispose();
  }
}
