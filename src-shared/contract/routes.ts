import type { CommandName } from './commands';

// Where each command runs, declared beside the command map: on this Studio's core, or on the
// runtime (another host, `capsule serve --studio`) that owns the capsules and sessions it names.
// The core's routing reads this table and nothing else; adding a command without a line here does
// not compile.

/**
 * - `here`: always this Studio's core, whatever the input names.
 * - `owner`: the runtime owning what the listed fields name (a capsule id `<runtime>/<id>`, a session
 *   the runtime reported); this Studio's own when they name nothing of another runtime.
 * - `hereOnly`: this Studio's core, refused when a listed field names another runtime's capsule or
 *   session (the command is not carried to runtimes yet: its answer names things the relay does
 *   not rename).
 */
export interface CommandRoute {
  runs: 'here' | 'owner' | 'hereOnly';
  /** Input fields holding a capsule id. */
  capsules?: readonly string[];
  /** Input fields holding a session id, or a list of them. */
  sessions?: readonly string[];
  /** The input's optional `runtime` field names the host to run on (commands for a whole formation). */
  runtime?: true;
  /** The named capsules may stand on two hosts (an edge across runtimes): the core joins the halves. */
  across?: true;
}

const here: CommandRoute = { runs: 'here' };
const capsule = (...fields: string[]): CommandRoute => ({ runs: 'owner', capsules: fields });
const session = (...fields: string[]): CommandRoute => ({ runs: 'owner', sessions: fields });
const byRuntime: CommandRoute = { runs: 'owner', runtime: true };

export const COMMAND_ROUTES: { readonly [K in CommandName]: CommandRoute } = {
  'workspace.open': here,
  'workspace.create': here,
  'workspace.recent': here,
  'workspace.current': here,
  'workspace.pickFolder': here,
  'workspace.browse': here, // this host's folders (an attached Studio's are refused outside its workspaces)
  'formation.get': here, // this Studio's view, the runtimes' capsules merged in
  'formation.launch': byRuntime,
  'formation.stop': byRuntime,
  'capsule.add': byRuntime,
  'capsule.duplicate': capsule('id'),
  'capsule.move': capsule('id'),
  'capsule.remove': capsule('id'),
  'capsule.launch': capsule('id'),
  'capsule.stop': capsule('id'),
  'capsule.restart': capsule('id'),
  'edge.connect': { runs: 'owner', capsules: ['source', 'target'], across: true },
  'edge.disconnect': { runs: 'owner', capsules: ['source', 'target'], across: true },
  'manifest.read': capsule('id'),
  'manifest.write': capsule('id'),
  'remote.add': here,
  'remote.move': capsule('id'),
  'remote.remove': capsule('id'),
  'remote.refresh': capsule('id'),
  'mcp.addServer': here,
  'mcp.updateServer': here,
  'mcp.moveServer': here,
  'mcp.removeServer': here,
  'mcp.listTools': here,
  'edge.setTools': capsule('source'),
  'task.send': capsule('capsuleId'),
  'task.checkData': capsule('capsuleId'),
  'task.get': capsule('capsuleId'),
  'task.list': capsule('capsuleId'),
  'task.cancel': capsule('capsuleId'),
  'session.stop': capsule('capsuleId'),
  'session.cancelAll': capsule('capsuleId'),
  'trace.tail': session('sessionId'),
  // Per client connection: the connection follows a runtime's session over its link itself.
  'trace.follow': here,
  'trace.unfollow': here,
  'shell.openExternal': here,
  'gateway.status': here,
  'gateway.configure': byRuntime,
  'expose.list': byRuntime,
  'expose.enable': capsule('capsuleId'),
  'expose.disable': capsule('capsuleId'),
  'expose.rotate': capsule('capsuleId'),
  'expose.update': capsule('capsuleId'),
  'expose.card': capsule('capsuleId'),
  'expose.accessLog': capsule('capsuleId'),
  'sessions.rehearse': session('sessionId'),
  'sessions.list': byRuntime,
  'sessions.get': session('sessionId'),
  'sessions.events': session('sessionId'),
  'sessions.taskTrace': session('sessionId'),
  'sessions.timeline': session('sessionIds', 'around'),
  'sessions.replay': { runs: 'hereOnly', sessions: ['sessionId'] },
  'sessions.fork': session('sessionId'),
  'sessions.forkOptions': session('sessionId'),
  'sessions.family': session('sessionId'),
  'sessions.compare': session('a', 'b'), // both runs on one host; one here and one there is refused
  'studio.capabilities': here,
  'secrets.list': here,
  'secrets.set': here,
  'secrets.delete': here,
  'secrets.useEnvironment': here,
  'breakpoints.set': { runs: 'hereOnly', capsules: ['capsuleId', 'from', 'to'] },
  'breakpoints.clear': { runs: 'hereOnly', capsules: ['capsuleId', 'from', 'to'] },
  'breakpoints.list': here,
  'breakpoints.configure': here,
  'breakpoints.resume': { runs: 'hereOnly', sessions: ['sessionId'] },
  'deploy.preview': here,
  'deploy.write': here,
  'history.list': here,
  'history.diff': here,
  'history.restore': here,
  'history.publish': here,
  'tests.list': here,
  'tests.run': here,
  'tests.saveFromSession': { runs: 'hereOnly', sessions: ['sessionId'] },
  'telemetry.get': here,
  'telemetry.configure': here,
  'runtimes.list': here,
  'runtimes.attach': here,
  'runtimes.detach': here,
  'conversations.get': here,
  'conversations.save': here,
  'layout.get': here,
  'layout.set': here,
  'tunnel.list': here,
  'tunnel.create': here,
  'tunnel.revoke': here,
  'tunnel.stop': here,
};
