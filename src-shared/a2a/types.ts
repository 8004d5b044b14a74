/** A2A 1.0 wire types (ProtoJSON shapes, lowerCamelCase), as the A2A 1.0 specification defines them. */

export const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
/** One of the proto TaskState names. */
export type TaskState = (typeof TASK_STATES)[number];

/** States after which a task never changes again. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
/** States where a task waits on its caller. */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

export const isTerminal = (s: TaskState): boolean => TERMINAL_STATES.has(s);

/** Message author. */
export type Role = 'ROLE_USER' | 'ROLE_AGENT' | 'ROLE_UNSPECIFIED';

/** One piece of content: exactly one of text, raw, url, data. */
export interface Part {
  text?: string;
  raw?: string;
  url?: string;
  data?: unknown;
  filename?: string;
  mediaType?: string;
  metadata?: Record<string, unknown>;
}

/** A message between client and agent. */
export interface Message {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: Role;
  parts: Part[];
  metadata?: Record<string, unknown>;
  extensions?: string[];
  referenceTaskIds?: string[];
}

/** Where a task stands. */
export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp?: string;
}

/** An output of a task. */
export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: Record<string, unknown>;
  extensions?: string[];
}

/** A unit of work held by a door. */
export interface Task {
  id: string;
  contextId?: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
  metadata?: Record<string, unknown>;
}

/** Authentication for a push notification POST. */
export interface AuthenticationInfo {
  scheme: string;
  credentials?: string;
}

/** A webhook registered for a task. */
export interface TaskPushNotificationConfig {
  tenant?: string;
  id?: string;
  taskId?: string;
  url: string;
  token?: string;
  authentication?: AuthenticationInfo;
}

/** Options of SendMessage / SendStreamingMessage. */
export interface SendMessageConfiguration {
  acceptedOutputModes?: string[];
  taskPushNotificationConfig?: TaskPushNotificationConfig;
  historyLength?: number;
  returnImmediately?: boolean;
}

/** Status change of a task, as streamed. */
export interface TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: Record<string, unknown>;
}

/** Artifact change of a task, as streamed. */
export interface TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Record<string, unknown>;
}

/** One SSE event / push body: exactly one member set. */
export interface StreamResponse {
  task?: Task;
  message?: Message;
  statusUpdate?: TaskStatusUpdateEvent;
  artifactUpdate?: TaskArtifactUpdateEvent;
}

/** An interface an agent can be called on. */
export interface AgentInterface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
  tenant?: string;
}

/** An A2A extension the agent supports. */
export interface AgentExtension {
  uri: string;
  description?: string;
  required?: boolean;
  params?: Record<string, unknown>;
}

/** A skill advertised on the card. */
export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  securityRequirements?: SecurityRequirement[];
}

/** `{schemes: {name: {list: [scopes]}}}` */
export interface SecurityRequirement {
  schemes: Record<string, { list: string[] }>;
}

/** JWS signature over the canonical card. */
export interface AgentCardSignature {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

/** The A2A 1.0 agent card. */
export interface AgentCard {
  name: string;
  description: string;
  version: string;
  supportedInterfaces: AgentInterface[];
  provider?: { url: string; organization: string };
  documentationUrl?: string;
  iconUrl?: string;
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    extensions?: AgentExtension[];
    extendedAgentCard?: boolean;
  };
  securitySchemes?: Record<string, Record<string, unknown>>;
  securityRequirements?: SecurityRequirement[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkill[];
  signatures?: AgentCardSignature[];
}

/** JSON-RPC 2.0 ids. */
export type JsonRpcId = string | number | null;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse<T = unknown> =
  { jsonrpc: '2.0'; id: JsonRpcId; result: T } | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcError };

/** The door extension: murmur's own methods, listed on the card. */
export const DOOR_EXTENSION_URI = 'https://capsule.studio/a2a/ext/door/v1';
/** Adds the door's text and tool frames to a SendStreamingMessage stream. */
export const FRAMES_EXTENSION_URI = 'https://capsule.studio/a2a/ext/frames/v1';
/** Header a capsule sets on its peer requests: `<capsule name>; session=<ses_…>`. */
export const PEER_HEADER = 'x-capsule-peer';
