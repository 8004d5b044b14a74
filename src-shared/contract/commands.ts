import { command, runsHere, runsOnRuntime, runsWithCapsule, runsWithSession } from './command';
import { z } from 'zod';
import type { Task } from '../a2a';
import type { SkippedLines, TraceEvent } from '../trace';
import { deployCommands } from './deploy';
import { testsCommands } from './tests';
import { versionsCommands } from './versions';
import { telemetryCommands } from './telemetry';
import { exposeCommands } from './expose';
import { tunnelCommands } from './tunnel';
import { forkCommands } from './fork';
import { sessionsCommands } from './sessions';
import { replayCommands } from './replay';
import { studioCommands } from './studio';
import { keepCommands } from './keep';
import { taskCheckDataInput, taskSendInput, type DataCheck } from './task-send';
import type {
  CancelAnswer,
  CapsuleView,
  EdgeView,
  FormationView,
  RecentWorkspace,
  RemoteView,
  StopSessionAnswer,
} from './types';
import { traceFollowCommands } from './follow';
import { breakpointsCommands } from './breakpoints';
import { runtimeId, runtimesCommands } from './runtimes';
import { toolServerCommands } from './tool-servers';

// The one map of commands between the UI and the core: `domain.verb` -> one line of doc, input
// schema (zod, parsed at every shell boundary), where it runs (command.ts), output type. Adding a
// command is one entry here plus its handler in the core.

const position = z.strictObject({ x: z.number().finite(), y: z.number().finite() });
const id = z.string().min(1).max(200);
const none = z.strictObject({}).optional();
/** A command for the whole formation: this Studio's, or an attached runtime's (runtimes.ts). */
const byRuntime = z.strictObject({ runtime: runtimeId.optional() }).optional();
/** A manifest `name`: letters, digits, `.`, `-`, `_`, at most 63. */
const capsuleName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/i);
/** What becomes of the running capsules of the workspace being left. */
const leaving = z.enum(['stop', 'keep']).optional();

export const commands = {
  'workspace.open': command<FormationView>()(
    'Opens a workspace folder (must hold formation.yaml) and remembers it as recent. `running`: what happens to the capsules running in the workspace open now ("stop", the default, or "keep" them running until that workspace is open again).',
    z.strictObject({ dir: z.string().min(1), running: leaving }),
    runsHere,
  ),
  'workspace.create': command<FormationView>()(
    'Creates a workspace in an empty or new folder (empty formation, or a copy of the example) and opens it (`running` as for workspace.open).',
    z.strictObject({ dir: z.string().min(1), example: z.boolean().optional(), running: leaving }),
    runsHere,
  ),
  'workspace.recent': command<RecentWorkspace[]>()('Workspaces opened before, newest first.', none, runsHere),
  'workspace.current': command<{ dir: string | null }>()('The folder of the open workspace, or null.', none, runsHere),

  'formation.get': command<FormationView>()(
    'The open formation: capsules with live state, remotes, edges, and the `version` of formation.changed it is current with (a client that missed a change asks for this).',
    none,
    runsHere, // this Studio's view, the runtimes' capsules merged in
  ),
  'formation.launch': command<{ launched: string[]; failed: { id: string; message: string }[] }>()(
    'Launches every stopped capsule (workers first, so their addresses answer when the orchestrator starts); `runtime`: those of an attached runtime instead.',
    byRuntime,
    runsOnRuntime,
  ),
  'formation.stop': command<{ stopped: string[] }>()(
    'Ends every running session of the formation (`runtime`: of an attached runtime instead).',
    byRuntime,
    runsOnRuntime,
  ),

  'capsule.add': command<CapsuleView>()(
    "Creates a manifest from the orchestrator or worker template and a node at the given position (`runtime`: in an attached runtime's formation, on its host).",
    z.strictObject({
      kind: z.enum(['orchestrator', 'worker']),
      name: capsuleName.optional(),
      position,
      runtime: runtimeId.optional(),
    }),
    runsOnRuntime,
  ),
  'capsule.duplicate': command<CapsuleView>()(
    'Copies a capsule: a new manifest file with the same text under a new unique name (`name`, or `<name>-copy`, `-copy-2`, …) and no pinned port, and a node beside the original (or at `position`). Its own allow list comes along (the edges out of it); edges into the original are not copied.',
    z.strictObject({ id, name: capsuleName.optional(), position: position.optional() }),
    runsWithCapsule('id'),
  ),
  'capsule.move': command<void>()(
    'Moves a node (the position persists in formation.yaml).',
    z.strictObject({ id, position }),
    runsWithCapsule('id'),
  ),
  'capsule.remove': command<void>()(
    'Removes a capsule from the formation and the edges to it; deletes its manifest file only when asked.',
    z.strictObject({ id, deleteManifest: z.boolean().optional() }),
    runsWithCapsule('id'),
  ),
  'capsule.launch': command<CapsuleView>()(
    'Starts a session for the capsule and opens its door.',
    z.strictObject({ id }),
    runsWithCapsule('id'),
  ),
  'capsule.stop': command<void>()(
    "Ends the capsule's session (StopSession, close the door).",
    z.strictObject({ id }),
    runsWithCapsule('id'),
  ),
  'capsule.restart': command<CapsuleView>()(
    'Ends the session and launches the manifest as saved. `when: "idle"` first waits for the running and queued tasks to end (at most 10 minutes); "now" cancels them.',
    z.strictObject({ id, when: z.enum(['idle', 'now']) }),
    runsWithCapsule('id'),
  ),

  'edge.connect': command<{ edge: EdgeView; pinnedPort?: number; message: string }>()(
    "Lets an orchestrator reach a worker or remote: adds the address to its allow list and sets the worker's peer_tasks.accept; pins a free port on a worker that has none. Across runtimes (hosts), `address` is the worker's door as the orchestrator's host reaches it (host:port or URL); without it the core derives it from the runtime's URL, and answers `invalid_input` with details.needsAddress when it cannot. To a tool server (`mcp:<name>`), any capsule: adds the server to its capabilities.mcp.servers (a remote one's URL to its allow list), narrowed to `tools` when given.",
    z.strictObject({
      source: id,
      target: id,
      address: z.string().min(1).max(300).optional(),
      tools: z.array(z.string().min(1).max(200)).max(1000).optional(),
    }),
    { runs: 'owner', capsules: ['source', 'target'], across: true },
  ),
  'edge.disconnect': command<{ revokedExport: boolean; message: string }>()(
    "Takes the allow entry back, and the worker's export when no other edge points at it; to a tool server, the manifest entry and the allow entry the edge added.",
    z.strictObject({ source: id, target: id }),
    { runs: 'owner', capsules: ['source', 'target'], across: true },
  ),

  'manifest.read': command<{ id: string; path: string; source: string; hash: string; issues: CapsuleView['issues'] }>()(
    "A capsule's manifest text, its hash and its validation issues.",
    z.strictObject({ id }),
    runsWithCapsule('id'),
  ),
  'manifest.write': command<{ hash: string; issues: CapsuleView['issues'] }>()(
    'Saves manifest text (even with issues, which come back with lines); refuses with `conflict` when the file changed since `expected`.',
    z.strictObject({ id, source: z.string().max(1_000_000), expected: z.string().optional() }),
    runsWithCapsule('id'),
  ),

  'remote.add': command<RemoteView>()(
    'Adds a remote A2A agent by URL and fetches its agent card (errors show on the node).',
    z.strictObject({
      url: z
        .string()
        .url()
        .refine((u) => /^https?:/i.test(u), 'http or https URL'),
      position,
    }),
    runsHere,
  ),
  'remote.move': command<void>()('Moves a remote node.', z.strictObject({ id, position }), runsWithCapsule('id')),
  'remote.remove': command<void>()(
    'Removes a remote agent and the allow entries that point at it.',
    z.strictObject({ id }),
    runsWithCapsule('id'),
  ),
  'remote.refresh': command<RemoteView>()(
    "Fetches a remote agent's card again.",
    z.strictObject({ id }),
    runsWithCapsule('id'),
  ),
  ...toolServerCommands, // tool servers (MCP) on the canvas

  'task.send': command<Task>()(
    'Sends a message to a running capsule through its door: text, a data part, files (base64), in a conversation (`contextId`) or as the reply to a task waiting for input (`taskId`, which continues that task). Bounded: files 700 KiB in all, data 256 KiB of JSON, the message under 960 KiB. Waits for the task to end or ask for input, at most `timeoutMs` (10 minutes by default; then the task as it is), unless returnImmediately or timeoutMs 0; an aborted invoke stops waiting (the task runs on).',
    taskSendInput,
    runsWithCapsule('capsuleId'),
  ),
  'task.checkData': command<DataCheck>()(
    "Checks a data part against the running capsule's `accepts` schema (the contract its door enforces), every problem with its field.",
    taskCheckDataInput,
    runsWithCapsule('capsuleId'),
  ),
  'task.get': command<Task>()(
    'A task as the door answers GetTask.',
    z.strictObject({ capsuleId: id, taskId: id, historyLength: z.number().int().nonnegative().optional() }),
    runsWithCapsule('capsuleId'),
  ),
  'task.list': command<Task[]>()(
    "The newest tasks (at most 200) of a capsule's running session, oldest first, with their history and artifacts, as the door's ListTasks answers them.",
    z.strictObject({ capsuleId: id }),
    runsWithCapsule('capsuleId'),
  ),
  'task.cancel': command<CancelAnswer>()(
    "Cancels one task through the door (CancelTask): its state and residue, or the door's reason it could not.",
    z.strictObject({ capsuleId: id, taskId: id }),
    runsWithCapsule('capsuleId'),
  ),
  'session.stop': command<StopSessionAnswer>()(
    "Ends the capsule's session: murmur.StopSession on its door (what was canceled and left behind), then the session's end (session_end, door closed).",
    z.strictObject({ capsuleId: id }),
    runsWithCapsule('capsuleId'),
  ),
  'session.cancelAll': command<StopSessionAnswer>()(
    "Cancels every task of the capsule's session (murmur.StopSession) and keeps the session running.",
    z.strictObject({ capsuleId: id }),
    runsWithCapsule('capsuleId'),
  ),

  'trace.tail': command<{ events: TraceEvent[]; from: number; next: number; skipped: SkippedLines }>()(
    "A session's trace lines from index `after` (0 = start), or from the last `last` lines, at most `limit`; `from` is the index of the first line read, `next` the index to ask for next, `skipped` the lines read but left out, by why.",
    z.strictObject({
      sessionId: id,
      after: z.number().int().nonnegative().optional(),
      last: z.number().int().positive().max(10_000_000).optional(),
      limit: z.number().int().positive().max(10_000).optional(),
    }),
    runsWithSession('sessionId'),
  ),

  ...traceFollowCommands, // which sessions' trace lines a client receives

  'shell.openExternal': command<void>()(
    'Opens an http(s) link in the system browser.',
    z.strictObject({
      url: z
        .string()
        .url()
        .refine((u) => /^https?:/i.test(u), 'http or https URL'),
    }),
    runsHere,
  ),
  ...exposeCommands, // gateway and exposures
  ...tunnelCommands, // reach from anywhere: tunnels in front of the gateway
  ...sessionsCommands, // sessions browser and timeline
  ...replayCommands, // replay of a recorded run
  ...forkCommands, // fork a recorded run, its family, compare two runs
  ...studioCommands, // shell capabilities (folder picker) and the secret store
  ...keepCommands, // conversations (kept with the workspace) and the layout (kept for the user)
  ...breakpointsCommands, // pauses of a running formation, held by the core
  ...deployCommands, // Export for Kubernetes
  ...versionsCommands, // history, diff, restore, publish
  ...testsCommands, // the Tests panel (capsule test)
  ...telemetryCommands, // OpenTelemetry settings
  ...runtimesCommands, // runtimes on other hosts attached to this Studio
} as const;

/** Every command name. */
export type CommandName = keyof typeof commands;
/** What a caller passes (defaults still optional). */
export type CommandInput<K extends CommandName> = z.input<(typeof commands)[K]['input']>;
/** What a handler receives after the boundary parsed the input. */
export type CommandArgs<K extends CommandName> = z.output<(typeof commands)[K]['input']>;
/** What a command returns. */
export type CommandOutput<K extends CommandName> = (typeof commands)[K]['output'];

export const COMMAND_NAMES = Object.keys(commands) as CommandName[];

export const isCommandName = (name: unknown): name is CommandName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(commands, name);
