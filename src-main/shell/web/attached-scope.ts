import { parseDocument } from 'yaml';
import { commands, type ReplyEnvelope } from '../../../src-shared/contract';
import { landsInside, resolveWorkspaceDir } from '../../workspace';

// What a Studio attached to `capsule serve --studio` may do on this host. By default it works on
// the workspaces the host serves and nothing else: it opens and creates workspaces, and writes
// exports, only inside them (symbolic links resolved), and it cannot make a capsule run commands
// here: no manifest it saves may add or change a harness CLI (`transport: process`) or a shell
// allow list, nor a local MCP tool server. The host lifts that with `serve --studio --allow-host-commands`, which makes the
// token as good as a shell account of the user running serve.

export interface AttachedScope {
  /** The host's opt-in: attached Studios may run commands and use folders anywhere on this host. */
  allowHostCommands: boolean;
  /** The folders the host serves (its --workspace): the attached Studio's files stay inside them. */
  workspaces: string[];
}

type Handle = (cmd: string, input: unknown) => Promise<ReplyEnvelope>;

const OPT_IN = 'the host allows it by running capsule serve --studio --allow-host-commands';

/** Commands whose `dir` is a folder the core opens, creates, lists or writes into. */
const FOLDER_COMMANDS = new Set([
  'workspace.open',
  'workspace.create',
  'workspace.browse',
  'deploy.preview',
  'deploy.write',
]);
/** Of those, the ones that read `dir` as a workspace name (relative: under the home; none: the home). */
const WORKSPACE_NAMED = new Set(['workspace.open', 'workspace.create', 'workspace.browse']);

/**
 * The parts of a manifest that run commands on the host, as written (before ${VAR} interpolation,
 * so a variable standing for one counts), or undefined when it has none. A text that is not YAML
 * has none: it cannot be launched either.
 */
export function hostCommandParts(source: string): string | undefined {
  const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) return undefined;
  const raw = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as {
    inference?: { transport?: unknown; harness?: unknown };
    capabilities?: { shell?: { allow?: unknown }; mcp?: { servers?: unknown } };
  };
  const transport = raw.inference?.transport;
  const harness = raw.inference?.harness;
  const shell = raw.capabilities?.shell?.allow;
  const servers = raw.capabilities?.mcp?.servers;
  // A local MCP server is a program the session starts on the host; a remote one (url only) is not.
  const local = Array.isArray(servers)
    ? servers.filter((s) => !(s && typeof s === 'object' && 'url' in s && !('command' in s)))
    : servers === undefined
      ? []
      : [servers];
  const runsHarness =
    (transport !== undefined && transport !== 'http' && transport !== 'embedded') || harness !== undefined;
  const runsShell = shell !== undefined && !(Array.isArray(shell) && shell.length === 0);
  if (!runsHarness && !runsShell && local.length === 0) return undefined;
  return JSON.stringify({
    transport: transport ?? null,
    harness: harness ?? null,
    shell: shell ?? null,
    mcp: local.map(hostPartsOfServer),
  });
}

/** What of a local MCP server runs on the host: its program, arguments, folder and environment. */
function hostPartsOfServer(server: unknown): unknown {
  if (!server || typeof server !== 'object') return server;
  const { command, args, cwd, env } = server as Record<string, unknown>;
  return { command, args, cwd, env };
}

/** Why an attached Studio may not run this command here, or undefined when it may. */
export async function attachedRefusal(
  scope: AttachedScope,
  cmd: string,
  input: unknown,
  handle: Handle,
): Promise<string | undefined> {
  if (scope.allowHostCommands) return undefined;
  // Only well-formed input is looked at: anything else the core refuses with its own message.
  const schema = (
    commands as Record<string, { input: { safeParse(v: unknown): { success: boolean; data?: unknown } } }>
  )[cmd]?.input;
  const parsed = schema?.safeParse(input);
  if (!parsed?.success) return undefined;
  const args = (parsed.data ?? {}) as { dir?: string; id?: string; source?: string; server?: { command?: string } };
  if (FOLDER_COMMANDS.has(cmd) && (args.dir !== undefined || cmd === 'workspace.browse')) {
    // Checked where the core will look: a relative workspace name lands under the home, not here.
    const dir = WORKSPACE_NAMED.has(cmd) ? resolveWorkspaceDir(args.dir ?? '~') : args.dir!;
    if (scope.workspaces.some((root) => landsInside(root, dir))) return undefined;
    return `${args.dir ?? 'Your home folder'} is outside the workspaces this host serves (${scope.workspaces.join(', ')}); an attached Studio works inside them unless ${OPT_IN}.`;
  }
  // A tunnel starts a tunnel engine (cloudflared) on the host and puts its gateway on the internet.
  if (cmd === 'tunnel.create')
    return `a tunnel runs a program on the host and opens its gateway to the internet; an attached Studio may not open one unless ${OPT_IN}.`;
  // A local tool server is a program the Studio starts on the host (to list its tools, and in every
  // capsule an edge gives it to); a remote one is only a URL.
  if ((cmd === 'mcp.addServer' || cmd === 'mcp.updateServer') && args.server?.command !== undefined)
    return `a local tool server runs a program on the host (${args.server.command}); an attached Studio may add or change only remote ones (a url), unless ${OPT_IN}.`;
  if (cmd === 'manifest.write' && args.id !== undefined && args.source !== undefined) {
    const wanted = hostCommandParts(args.source);
    if (wanted === undefined) return undefined;
    const current = await handle('manifest.read', { id: args.id });
    const before = current.ok ? hostCommandParts((current.value as { source: string }).source) : undefined;
    if (wanted === before) return undefined;
    return `this manifest would run commands on the host (inference.transport: process, inference.harness or capabilities.shell); an attached Studio may keep those as the host wrote them but not add or change them, unless ${OPT_IN}.`;
  }
  return undefined;
}
