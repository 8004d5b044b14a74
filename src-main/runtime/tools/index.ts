import { dirname } from 'node:path';
import type { Manifest } from '../../../src-shared/manifest';
import type { Session, SessionOptions, StopSessionResult } from '../api';
import type { Tool } from '../tool-types';
import { createDelegateTool } from './delegate';
import type { FormationResolver } from './formation';
import { createShellTool } from './shell';
import { createShellRegistry, type ShellRegistry } from './shell-work';
import { runningFormation } from './formation-running';
import { recordsLayout } from '../layout';
import { residueKey } from '../../../src-shared/residue';
import { createMcpPlayback, createMcpToolbox, playsBackMcp } from '../mcp';

type TraceFn = (event: { event_type: string } & Record<string, unknown>) => void;

// The tools a session offers its model besides request_input: delegate_task (when the capsule may
// reach anything: an allow list or a formation) and shell (when it lists programs).

export { createDelegateTool, type DelegateDeps } from './delegate';
export { createShellTool, shellAllows, type ShellToolDeps } from './shell';
export { createShellRegistry, type RunningCommand, type ShellRegistry } from './shell-work';
export { runningFormation } from './formation-running';
export {
  liveFormation,
  resolveTarget,
  staticFormation,
  type FormationMember,
  type FormationResolver,
  type FormationTarget,
} from './formation';
export { joinArgv, splitCommand } from './argv';

export interface SessionToolDeps {
  manifest: Manifest;
  manifestPath: string;
  /** The session's records folder (known once the session has its id). */
  workdir: () => string;
  /** The session-level registry of shell commands; the session's end disposes it. */
  shell: ShellRegistry;
  formation?: FormationResolver;
  /** startSession, for sub-capsules. */
  startChild?: (opts: SessionOptions) => Promise<Session>;
  secrets?: readonly string[];
  env?: Record<string, string | undefined>;
}

export function createSessionTools(deps: SessionToolDeps): Tool[] {
  const tools: Tool[] = [];
  const allow = deps.manifest.capabilities?.network?.allow ?? [];
  if (allow.length || deps.formation) {
    tools.push(
      createDelegateTool({
        capsule: { name: deps.manifest.name, version: deps.manifest.version },
        // Read at each delegation: a running session's allow list can change (Session.updatePolicy).
        allow: () => deps.manifest.capabilities?.network?.allow ?? [],
        workdir: deps.workdir,
        formation: deps.formation,
        startChild: deps.startChild,
        env: deps.env,
      }),
    );
  }
  const shellAllow = deps.manifest.capabilities?.shell?.allow ?? [];
  if (shellAllow.length) {
    tools.push(
      createShellTool({
        allow: shellAllow,
        cwd: dirname(deps.manifestPath),
        workdir: deps.workdir,
        registry: deps.shell,
        secrets: deps.secrets,
        env: deps.env,
      }),
    );
  }
  return tools;
}

export interface SessionToolkit {
  /** Tools for the executor: the caller's own first, then the session tools it did not replace. */
  tools: Tool[];
  /** The MCP servers' tools for this turn (capabilities.mcp.servers), or undefined without servers. */
  moreTools?: (signal: AbortSignal) => Promise<Tool[]>;
  /** The session has its trace: the MCP servers start connecting. */
  start(trace: TraceFn): void;
  /** A StopSession answer completed with the shell commands the session keeps running. */
  withResidue(result: StopSessionResult): StopSessionResult;
  /** Kills what the session's shell commands left running (the session's end). */
  dispose(): Promise<void>;
}

/** What startSession needs: the session tools and their session-level registry, in one object. */
export function createSessionToolkit(deps: Omit<SessionToolDeps, 'shell'> & { extra?: Tool[] }): SessionToolkit {
  const shell = createShellRegistry();
  const extra = deps.extra ?? [];
  // Without a formation, a capsule that may reach anything finds peers by name among the capsules
  // running on this machine (as `capsule ps` lists them).
  const mayConnect = (deps.manifest.capabilities?.network?.allow ?? []).length > 0;
  const formation = deps.formation ?? (mayConnect ? runningFormation(recordsLayout(deps.env).running) : undefined);
  const own = createSessionTools({ ...deps, formation, shell }).filter(
    (t) => !extra.some((e) => e.spec.name === t.spec.name),
  );
  const servers = deps.manifest.capabilities?.mcp?.servers ?? [];
  let trace: TraceFn = () => {};
  const mcp = !servers.length
    ? undefined
    : playsBackMcp(deps.manifest)
      ? createMcpPlayback({ servers, calls: deps.manifest.inference.rehearsal?.mcp_calls ?? [] })
      : createMcpToolbox({
          servers,
          folder: dirname(deps.manifestPath),
          env: deps.env ?? process.env,
          // Read at each request: a running session's allow list can change (Session.updatePolicy).
          allow: () => deps.manifest.capabilities?.network?.allow ?? [],
          trace: (event) => trace(event),
        });
  return {
    tools: [...extra, ...own],
    ...(mcp ? { moreTools: (signal: AbortSignal) => mcp.tools(signal) } : {}),
    start(t) {
      trace = t;
      mcp?.start();
    },
    withResidue(result) {
      // Commands detached by tasks that already ended are residue too, and the MCP servers the
      // session keeps running; name each once.
      const named = new Set(result.residue.map(residueKey));
      const more = [...shell.residue(), ...(mcp?.residue() ?? [])].filter((r) => !named.has(residueKey(r)));
      return more.length ? { ...result, residue: [...result.residue, ...more] } : result;
    },
    dispose: async () => {
      await Promise.all([shell.dispose(), mcp?.dispose()]);
    },
  };
}
