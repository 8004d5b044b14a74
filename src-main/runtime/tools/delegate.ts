import { z } from 'zod';
import { newMessageId, shortId } from '../../../src-shared/ids';
import type { Artifact, Part, Task } from '../../../src-shared/a2a';
import {
  checkTarget,
  createPeerClient,
  followTask,
  formatTraceparent,
  PeerError,
  PolicyRefusal,
  responseText,
  traceIdForTask,
  type PeerClient,
} from '../../peer';
import type { Session, SessionOptions } from '../api';
import type { Tool, ToolContext, ToolOutcome } from '../tool-types';
import { resolveTarget, type FormationResolver } from './formation';
import { EVERY_REACHABLE, expandEveryReachable, noneReachable } from './delegate-reach';

// delegate_task: hands a piece of work to another capsule (or any A2A 1.0 agent) and returns its
// answer. The message goes out with returnImmediately and the task is followed to its end, so a
// cancel of this task can reach the peer task: CancelTask goes to it, and a sub-capsule started
// for the delegation is ended, before this task's own task_end.

export interface DelegateDeps {
  capsule: { name: string; version: string };
  /** capabilities.network.allow of the delegating capsule; a function is read at each delegation (live policy). */
  allow: readonly string[] | (() => readonly string[]);
  /** The delegating session's records folder (children's records go under it). */
  workdir: () => string;
  formation?: FormationResolver;
  /** startSession, injected (the runtime's index imports the tools, not the other way round). */
  startChild?: (opts: SessionOptions) => Promise<Session>;
  /** The delegating session's environment, handed on to sub-capsules (CAPSULE_HOME, ${VAR}s). */
  env?: Record<string, string | undefined>;
  poll?: { firstDelayMs?: number; maxDelayMs?: number };
  /** How long a cancel waits on the peer (a send in flight, CancelTask, the child's end). */
  cancelTimeoutMs?: number;
}

// The model writes these arguments, so they are hostile input: bounded, and `to` is checked as a
// URL before anything uses it (a bad one fails this call, never the session).
const MAX_TO = 2048;
const argsSchema = z.strictObject({
  to: z.string().min(1).max(MAX_TO, `at most ${MAX_TO} characters`),
  text: z.string().min(1),
  data: z.record(z.string(), z.unknown()).optional(),
  context_id: z.string().min(1).max(256).optional(),
});

/** Why a peer URL cannot be used, or undefined when it is a well-formed http(s) URL. */
function peerUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL (check the host and that the port is 1-65535)';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `has scheme ${parsed.protocol} (only http and https peers are reachable)`;
  if (!parsed.hostname) return 'names no host';
  return undefined;
}

/** One delegation in flight, as a cancel sees it. */
interface Delegation {
  id: string;
  capsule: string;
  version: string;
  url: string;
  extraAllow: string[];
  peerTaskId?: string;
  peerSettled: boolean;
  child?: Session;
  childSessionId: string;
  childWorkdir: string;
  /** The start of a child or the send still under way; a cancel lets it land first. */
  pending?: Promise<unknown>;
  /** The child's end, once asked for (by the cancel or by the delegation's own end). */
  childEnding?: Promise<void>;
  /** The cancel has done its part (the peer told, the child it knew of ended). */
  cancelDone?: boolean;
  canceled: boolean;
}

const withTimeout = <T>(p: Promise<T> | undefined, ms: number) =>
  Promise.race([Promise.resolve(p).catch(() => undefined), new Promise<void>((r) => setTimeout(r, ms).unref())]);

function describeError(err: unknown): string {
  if (err instanceof PolicyRefusal || err instanceof PeerError) return err.message;
  return (err as Error)?.message || String(err);
}

/**
 * A peer's structured answer (data parts of its response), as an artifact of the delegating
 * task: the orchestrator's own caller gets its workers' structured results, not only their text.
 */
function dataArtifactOf(task: Task, d: Delegation): Artifact | undefined {
  const response = task.artifacts?.find((a) => a.artifactId === 'response' || a.name === 'response');
  const parts = (response?.parts ?? []).filter((p) => p.data !== undefined);
  if (!parts.length) return undefined;
  return {
    artifactId: `delegation_${d.id}`,
    name: `${d.capsule} answer`,
    parts,
    metadata: { delegation_id: d.id, capsule: d.capsule, peer_task_id: task.id },
  };
}

function outcomeOf(task: Task, d: Delegation): ToolOutcome {
  const text = responseText(task);
  switch (task.status.state) {
    case 'TASK_STATE_COMPLETED': {
      const artifact = dataArtifactOf(task, d);
      return {
        ok: true,
        content: text || '(the peer completed the task with no response text)',
        ...(artifact ? { artifact } : {}),
      };
    }
    case 'TASK_STATE_FAILED':
      return { ok: false, error: `peer_task_failed: ${text || 'no reason given'}` };
    case 'TASK_STATE_CANCELED':
      return { ok: false, error: 'peer_task_canceled: the peer task was canceled' };
    case 'TASK_STATE_REJECTED':
      return { ok: false, error: `peer_task_rejected: ${text || 'no reason given'}` };
    default:
      // INPUT_REQUIRED / AUTH_REQUIRED: this tool cannot answer for the model; say what was asked.
      return { ok: false, error: `peer_task_waiting: task ${task.id} is ${task.status.state}: ${text}` };
  }
}

/**
 * What the delegation's tool_result line records beside the answer: the peer task it made and the
 * session holding it, so a trace reader (the Studio's inspector) can open the child task.
 */
function linkOf(d: Delegation): Record<string, string> {
  const fields: Record<string, string> = { delegation_id: d.id, capsule: d.capsule };
  if (d.peerTaskId) fields.peer_task_id = d.peerTaskId;
  if (d.childSessionId) fields.child_session_id = d.childSessionId;
  return fields;
}

/** The call a delegation's trace lines belong to. */
const callOf = (ctx: ToolContext) => (ctx.callId ? { call_id: ctx.callId } : {});

const allowOf = (deps: DelegateDeps): readonly string[] =>
  typeof deps.allow === 'function' ? deps.allow() : deps.allow;

export function createDelegateTool(deps: DelegateDeps): Tool {
  const cancelTimeout = deps.cancelTimeoutMs ?? 5000;
  const names = () => deps.formation?.names?.() ?? [];
  return {
    delegates: true,
    spec: {
      name: 'delegate_task',
      description:
        'Hands a task to another capsule or A2A agent and returns its answer. `to` is a peer URL or the name of a capsule in this formation' +
        (names().length ? ` (${names().join(', ')})` : '') +
        '. Several delegations in one turn run in parallel.' +
        (deps.formation?.unavailable?.() ?? []).map((u) => ` ${u.name} is ${u.reason}.`).join(''),
      parameters: {
        type: 'object',
        properties: {
          to: {
            type: 'string',
            description:
              'Peer URL (http://host:port) or capsule name in this formation; "*" for every worker this capsule may reach.',
          },
          text: { type: 'string', description: 'What the peer should do.' },
          data: { type: 'object', description: 'Structured input, sent as a data part.' },
          context_id: { type: 'string', description: 'Continue an earlier conversation with the same peer.' },
        },
        required: ['to', 'text'],
      },
    },
    expand: (args) =>
      expandEveryReachable(args, allowOf(deps), deps.formation)?.filter((a) => a.to !== deps.capsule.name),
    async run(raw, ctx) {
      // A "*" that reaches here expanded to nobody (an expanded one arrives as one call per worker).
      if (raw.to === EVERY_REACHABLE) return { ok: false, error: noneReachable(deps.capsule.name) };
      const parsed = argsSchema.safeParse(raw);
      if (!parsed.success)
        return {
          ok: false,
          error: `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}`,
        };
      return delegate(deps, parsed.data, ctx, cancelTimeout);
    },
  };
}

async function delegate(
  deps: DelegateDeps,
  args: z.infer<typeof argsSchema>,
  ctx: ToolContext,
  cancelTimeout: number,
): Promise<ToolOutcome> {
  const target = await resolveTarget(args.to, deps.formation);
  if (target.kind === 'unknown' || target.kind === 'unavailable') return { ok: false, error: target.error };
  if (target.kind === 'door') {
    const problem = peerUrlProblem(target.url);
    if (problem)
      return { ok: false, error: `invalid arguments: to: ${JSON.stringify(args.to.slice(0, 200))} ${problem}` };
  }
  const d: Delegation = {
    id: shortId('dlg'),
    capsule: target.capsule ?? (target.kind === 'door' ? hostOf(target.url) : args.to),
    version: target.kind === 'door' ? (target.version ?? '') : '',
    url: target.kind === 'door' ? target.url : '',
    extraAllow: [],
    peerSettled: false,
    childSessionId: target.kind === 'door' ? (target.sessionId ?? '') : '',
    childWorkdir: target.kind === 'door' ? (target.workdir ?? '') : '',
    canceled: false,
  };
  // A breakpoint on this edge holds the delegation before anything is sent or started; the user
  // may edit the text the worker gets.
  const hold = ctx.pauseAt?.({
    kind: 'edge',
    to: args.to,
    capsule: d.capsule,
    url: d.url,
    callId: ctx.callId,
    text: args.text,
  });
  if (hold) {
    try {
      const { text, edited } = await hold;
      if (edited) args = { ...args, text };
    } catch {
      return { ok: false, error: 'canceled' };
    }
  }
  // A task that arrived with a traceparent delegates in that trace, so a whole formation run,
  // however many hops deep, is one trace.
  const traceparent = formatTraceparent(traceIdForTask(ctx.taskId, ctx.traceparent));
  // The allow list as it is now: an edge removed while the capsule runs stops the next delegation.
  const allow = allowOf(deps);
  const client = createPeerClient({ capsule: deps.capsule.name, sessionId: ctx.sessionId, allow, trace: ctx.trace });
  const call = () => ({ traceparent, extraAllow: d.extraAllow });
  const residue = () => ({
    kind: 'delegation' as const,
    delegation_id: d.id,
    capsule: d.capsule,
    version: d.version,
    child_session_id: d.childSessionId,
    child_workdir: d.childWorkdir,
  });

  const endChild = (reason: string) => (d.childEnding ??= d.child?.end(reason).catch(() => undefined));

  const untrack = ctx.track({
    describe: () => `delegation ${d.id} to ${d.capsule}${d.peerTaskId ? ` (peer task ${d.peerTaskId})` : ''}`,
    async cancel() {
      d.canceled = true;
      await withTimeout(d.pending, cancelTimeout);
      let cancelSent = false;
      if (d.peerTaskId && !d.peerSettled) {
        const signal = AbortSignal.timeout(cancelTimeout);
        cancelSent = await client.cancelTask(d.url, d.peerTaskId, { ...call(), signal }).then(
          () => true,
          () => false,
        );
      }
      await withTimeout(endChild('delegating task canceled'), cancelTimeout * 2);
      ctx.trace({
        event_type: 'delegation_end',
        ...callOf(ctx),
        delegation_id: d.id,
        peer_task_id: d.peerTaskId ?? '',
        state: 'canceled',
        cancel_sent: cancelSent,
      });
      d.cancelDone = true;
      return residue();
    },
  });

  try {
    if (target.kind === 'manifest') {
      const started = startChild(deps, target.manifestPath, ctx, d);
      d.pending = started;
      const err = await started;
      if (err) return { ok: false, error: err };
      if (d.canceled) return { ok: false, error: 'canceled' };
    }
    ctx.trace({
      event_type: 'delegation_start',
      delegation_id: d.id,
      ...(ctx.callId ? { call_id: ctx.callId } : {}),
      to: args.to,
      peer_url: d.url,
      capsule: d.capsule,
      child_session_id: d.childSessionId,
      traceparent,
    });
    const parts: Part[] = [{ text: args.text }];
    if (args.data) parts.push({ data: args.data, mediaType: 'application/json' });
    const message = {
      messageId: newMessageId(),
      role: 'ROLE_USER' as const,
      parts,
      ...(args.context_id ? { contextId: args.context_id } : {}),
    };
    if (!d.version && target.kind === 'door') {
      // Best effort and quiet: a card that cannot be had is no refusal the model asked for.
      const quiet = createPeerClient({ capsule: deps.capsule.name, sessionId: ctx.sessionId, allow });
      learnFromCard(quiet, d, allow).catch(() => {});
    }
    const sent = client
      .sendMessage(d.url, { message, configuration: { returnImmediately: true } }, call())
      .then((r) => {
        d.peerTaskId = r.task?.id;
        return r;
      });
    d.pending = sent;
    const answer = await sent;
    if (answer.message)
      return { ok: true, content: answer.message.parts.map((p) => p.text ?? JSON.stringify(p.data ?? '')).join('\n') };
    if (d.canceled) return { ok: false, error: 'canceled' };
    const final = await followTask(client, d.url, answer.task, { ...call(), signal: ctx.signal, ...deps.poll });
    d.peerSettled = true;
    ctx.trace({
      event_type: 'delegation_end',
      ...callOf(ctx),
      delegation_id: d.id,
      peer_task_id: final.id,
      state: final.status.state,
    });
    return outcomeOf(final, d);
  } catch (err) {
    if (d.canceled || ctx.signal.aborted) return { ok: false, error: 'canceled' };
    return { ok: false, error: describeError(err) };
  } finally {
    ctx.traceResult?.(linkOf(d));
    if (!d.canceled && !ctx.signal.aborted) {
      untrack();
      // A sub-capsule lives as long as its delegation; its records stay under children/.
      await endChild('delegation finished');
    } else if (d.cancelDone) {
      // On cancel the cancel ends the child (after CancelTask reached it), unless the child's
      // start outlasted the cancel's wait: then it is ended here, as soon as it exists.
      await endChild('delegating task canceled');
    }
  }
}

/** Starts the sub-capsule; returns an error text, or undefined once d.url points at its door. */
async function startChild(
  deps: DelegateDeps,
  manifestPath: string,
  ctx: ToolContext,
  d: Delegation,
): Promise<string | undefined> {
  if (!deps.startChild)
    return `sub-capsule ${d.capsule} cannot be started: this session has no runtime to start it with`;
  try {
    const child = await deps.startChild({
      manifestPath,
      parent: { sessionId: ctx.sessionId, workdir: deps.workdir(), name: deps.capsule.name },
      // The child's door is opened by this runtime for this delegation only: any free port, and
      // exactly that door is allowed for it (see README, "Formations and network policy").
      port: 0,
      env: deps.env,
    });
    d.child = child;
    d.capsule = child.manifest.name;
    d.version = child.manifest.version;
    d.childSessionId = child.id;
    d.childWorkdir = child.workdir;
    d.url = child.url;
    d.extraAllow = [new URL(child.url).origin];
    return undefined;
  } catch (err) {
    return `sub-capsule ${d.capsule} could not start: ${describeError(err)}`;
  }
}

/** Names a plain peer by its card (for residue), when its card is in an allowed place. */
async function learnFromCard(client: PeerClient, d: Delegation, allow: readonly string[]): Promise<void> {
  try {
    const cardUrl = new URL('/.well-known/agent-card.json', d.url).href;
    if (!checkTarget(cardUrl, allow).ok) return;
    const card = await client.fetchCard(cardUrl, { signal: AbortSignal.timeout(5000) });
    if (d.capsule === hostOf(d.url)) d.capsule = card.name;
    d.version ||= card.version ?? '';
  } catch {}
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
