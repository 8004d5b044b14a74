import type { AgentSkill, TaskState } from '../a2a';
import type { ToolServerDefinition, ToolServerView } from './tool-servers';
import type { LastTaskView } from './last-task';

// The shapes the core shows the renderer. Plain data (JSON over IPC or WebSocket); no secrets:
// manifest sources are sent as written (with ${VAR} references, never their values).

/** A point on the canvas. */
export interface Position {
  x: number;
  y: number;
}

/** Where a capsule's session stands, as the canvas shows it. */
export type CapsuleState = 'stopped' | 'starting' | 'idle' | 'busy' | 'stopping' | 'failed';

/** One problem in a manifest or in formation.yaml, located by line and field where known. */
export interface IssueView {
  line?: number;
  column?: number;
  /** Field path such as `inference.model`; empty for the whole file. */
  path: string;
  message: string;
  hint?: string;
}

/** A capsule of the open formation: its manifest summary plus its live session state. */
export interface CapsuleView {
  /** Stable id from formation.yaml (not the manifest name). */
  id: string;
  /** The manifest's `name` (falls back to the id when the manifest does not parse). */
  name: string;
  /** Manifest path relative to the workspace folder. */
  manifestPath: string;
  position: Position;
  /** Set when formation.yaml gives the node no position (it stands at 0,0 until the canvas places it). */
  unplaced?: true;
  role: 'orchestrator' | 'worker' | 'agent' | null;
  /** Driver kind (rehearsal, anthropic, …) or the artifact name when unknown; null when unreadable. */
  driver: string | null;
  model: string | null;
  /** True for the scripted offline driver: the UI marks such capsules clearly. */
  rehearsal: boolean;
  /** network.internal_port when pinned. */
  port: number | null;
  /** The manifest text as on disk. */
  manifestSource: string;
  /** Content hash of manifestSource; pass it as `expected` to manifest.write. */
  manifestHash: string;
  /** Validation problems; a capsule with issues still shows (never a blank app). */
  issues: IssueView[];
  state: CapsuleState;
  /** The door URL while a session runs. */
  url?: string;
  sessionId?: string;
  /** Tasks waiting in the queue. */
  queued: number;
  /** Tasks the session has seen. */
  tasks: number;
  /** Id of the task the capsule works on: the one running now, else one paused at a breakpoint. */
  running?: string | null;
  /** Why the last launch or session failed. */
  error?: string;
  /** The last task that ended (or asked for input) since this Studio started, kept after the session stops: the node's Last output. */
  lastTask?: LastTaskView;
  /** exports.peer_tasks.accept */
  acceptsPeerTasks: boolean;
  /** capabilities.network.allow as written. */
  allow: string[];
  /** capabilities.mcp.servers as written (only when it names any): the edges to tool servers. */
  mcpServers?: McpUseView[];
  /** Set while the running session is older than the saved manifest (changes beyond the allow list and peer export): why a restart is needed. */
  restartToApply?: string;
  /** The attached runtime (another host) that runs it; absent for this Studio's own capsules. */
  runtime?: string;
}

/** What a remote agent's card says, trimmed for a node. */
export interface RemoteCardView {
  name: string;
  description: string;
  version: string;
  skills: Pick<AgentSkill, 'id' | 'name' | 'description' | 'tags'>[];
  interfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  /** Whether the card's JWS signature verified against its origin's keys. */
  signature?: { state: 'verified' | 'unsigned' | 'invalid' | 'unverifiable'; kid?: string; message: string };
}

/** A remote A2A agent in the formation, added by its card URL. */
export interface RemoteView {
  id: string;
  url: string;
  position: Position;
  /** As for a capsule: formation.yaml gives no position. */
  unplaced?: true;
  card?: RemoteCardView;
  /** Why the card could not be fetched or read. */
  error?: string;
  /** The address an edge to this remote writes into an allow list. */
  address?: string;
  /** The attached runtime whose formation holds it; absent for this Studio's own. */
  runtime?: string;
}

/** One entry of a capsule's capabilities.mcp.servers: its definition as written and the tools it narrows to. */
export interface McpUseView extends ToolServerDefinition {
  name: string;
  /** The tools the capsule may call; absent: all of the server's. */
  tools?: string[];
}

/** An edge orchestrator -> target, derived from the orchestrator's allow list (or capsule -> tool server, from its MCP entry). */
export interface EdgeView {
  id: string;
  /** Capsule id of the orchestrator. */
  source: string;
  /** Capsule id, remote id, `mcp:<name>` for a tool server, or `external:<address>` for an allow entry that matches nothing. */
  target: string;
  targetKind: 'capsule' | 'remote' | 'external' | 'tool_server';
  /** The allow entry that makes this edge (a tool server's: its name). */
  address: string;
  /** To a tool server: the tools the capsule may call; absent: all of them. */
  tools?: string[];
}

/** The open workspace as the canvas draws it. */
export interface FormationView {
  /** Absolute workspace folder. */
  dir: string;
  /** Folder name, shown as the formation's name. */
  name: string;
  capsules: CapsuleView[];
  remotes: RemoteView[];
  /** Tool servers (MCP): formation.yaml's, then those only manifests name. Absent from older cores. */
  toolServers?: ToolServerView[];
  edges: EdgeView[];
  /** Sessions still running in other workspaces (kept running when the user left them). */
  runningElsewhere?: number;
  /** Problems with formation.yaml itself. */
  issues: IssueView[];
  /** The formation.changed version this view is current with (set on formation.get and workspace.open). */
  version?: number;
}

/** A workspace opened before. */
export interface RecentWorkspace {
  dir: string;
  name: string;
  openedAt: string;
  /** False when the folder is gone (the UI says so instead of failing to open it). */
  exists: boolean;
}

/** Something a canceled task or stopped session left behind (the one residue shape, src-shared/residue). */
export type ResidueView = import('../residue').ResidueItem;

/** The door's answer to CancelTask: the task, or why it could not be canceled. */
export interface CancelAnswer {
  task?: import('../a2a').Task;
  residue: ResidueView[];
  /** Set when the door refused (e.g. -32002 with the task's final state). */
  refused?: { code: number; message: string; state?: TaskState };
}

/** What Stop session (or Cancel all tasks) canceled and left behind, read from the door's murmur.StopSession. */
export interface StopSessionAnswer {
  session_id: string;
  canceled: string[];
  residue: ResidueView[];
  /** True when the session was ended too (Stop session); false when it keeps running (Cancel all tasks). */
  ended: boolean;
}
