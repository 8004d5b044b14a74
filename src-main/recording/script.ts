import type { Manifest, RehearsalMcpCall, RehearsalTurn } from '../../src-shared/manifest';
import { givenEntry } from '../drivers';
import type { RecordedTask, RecordedTurn } from './tasks';

// Recorded tasks -> a rehearsal script (manifest inference.rehearsal) that replays them: one reply
// per task text, one scripted turn per recorded model turn with its text, tool calls, token
// counts, stop reason and (scaled) time. Pure. The trace it reads is already masked, so a secret
// never reaches a script; nothing here adds one back.

export type RehearsalScript = NonNullable<Manifest['inference']['rehearsal']>;

export interface ScriptOptions {
  /** The session the recording comes from (the script's recorded_from). */
  sessionId: string;
  /** Time scale: 1 keeps recorded timings, 2 replays twice as fast, 0 replays with no delay. */
  speed: number;
  /** The capsule name a delegation should go to in the replay (a recorded URL becomes a name). */
  delegateTo?: (to: string, task: RecordedTask) => string;
}

export interface ScriptResult {
  script: RehearsalScript;
  /** What the replay cannot reproduce, in words (shown by `capsule rehearse`). */
  notes: string[];
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** A `when` matching exactly this task text (the driver's /regex/ form, anchored, case kept). */
export function exactWhen(text: string): string {
  return `/^${text.replace(REGEX_SPECIAL, '\\$&')}$/`;
}

const STOPS = new Set(['end_turn', 'max_tokens', 'tool_use']);

function scriptedTurn(
  t: RecordedTurn,
  previous: RecordedTurn | undefined,
  task: RecordedTask,
  opts: ScriptOptions,
): RehearsalTurn {
  const out: RehearsalTurn = {};
  if (t.text || !t.toolCalls.length) out.text = t.text;
  if (t.toolCalls.length) {
    out.tool_calls = t.toolCalls.map((c) => {
      if (c.name !== 'delegate_task' || typeof c.arguments.to !== 'string' || !opts.delegateTo)
        return { name: c.name, arguments: c.arguments };
      return { name: c.name, arguments: { ...c.arguments, to: opts.delegateTo(c.arguments.to, task) } };
    });
  }
  if (opts.speed > 0 && t.durationMs > 0) out.delay_ms = Math.round(t.durationMs / opts.speed);
  out.tokens_in = t.tokensIn;
  out.tokens_out = t.tokensOut;
  const stop = STOPS.has(t.stop) ? (t.stop as RehearsalTurn['stop']) : 'end_turn';
  // The driver's default is tool_use with tool calls and end_turn without: say only what differs.
  if (stop !== (t.toolCalls.length ? 'tool_use' : 'end_turn')) out.stop = stop;
  if (previous?.toolCalls.length) out.given = previous.results.map((r) => givenEntry(r ?? ''));
  return out;
}

function turnsOf(task: RecordedTask, opts: ScriptOptions): RehearsalTurn[] {
  const turns = task.turns.map((t, i) => scriptedTurn(t, task.turns[i - 1], task, opts));
  if (task.failure?.cause === 'inference_error') turns.push({ error: task.failure.message });
  else if (task.canceledAtTurn !== undefined && task.canceledAtTurn > task.turns.length) turns.push({ hang: true });
  return turns;
}

/** The script replaying these tasks; tasks with the same text replay as the first of them. */
export function scriptFromTasks(tasks: readonly RecordedTask[], opts: ScriptOptions): ScriptResult {
  const notes: string[] = [];
  const replies: RehearsalScript['replies'] = [];
  const seen = new Map<string, RecordedTask>();
  for (const task of tasks) {
    const turns = turnsOf(task, opts);
    if (!turns.length) {
      notes.push(
        `task ${task.taskId} made no model turn (${task.exitStatus ?? 'unfinished'}); nothing to replay for it`,
      );
      continue;
    }
    const first = seen.get(task.text);
    if (first) {
      // Timings differ from run to run; what was said and done is what must match.
      const untimed = (ts: RehearsalTurn[]) => JSON.stringify(ts.map(({ delay_ms: _, ...rest }) => rest));
      if (untimed(turnsOf(first, opts)) !== untimed(turns)) {
        notes.push(
          `task ${task.taskId} has the same text as task ${first.taskId} but went differently; the replay answers both as ${first.taskId}`,
        );
      }
      continue;
    }
    // The driver fills {{task}} and {{tool_results}} in scripted text: a model that wrote them
    // literally is replayed with them filled in.
    if (task.turns.some((t) => /\{\{(task|tool_results)\}\}/.test(t.text)))
      notes.push(`task ${task.taskId}: a recorded text holds {{task}} or {{tool_results}}, which the replay fills in`);
    seen.set(task.text, task);
    replies.push({ when: exactWhen(task.text), turns });
  }
  const mcpCalls = recordedMcpCalls(tasks, notes);
  return {
    script: {
      recorded_from: opts.sessionId,
      delay_ms: 0,
      replies,
      ...(mcpCalls.length ? { mcp_calls: mcpCalls } : {}),
    },
    notes,
  };
}

/** The most recorded MCP calls one script holds (the manifest schema's bound). */
const MAX_MCP_CALLS = 10_000;

/** What the MCP servers answered in these tasks, each distinct answer once, in the order given. */
function recordedMcpCalls(tasks: readonly RecordedTask[], notes: string[]): RehearsalMcpCall[] {
  const out: RehearsalMcpCall[] = [];
  const seen = new Set<string>();
  for (const task of tasks) {
    for (const c of task.mcpCalls) {
      const call: RehearsalMcpCall = {
        server: c.server,
        tool: c.tool,
        arguments: c.arguments,
        ok: c.ok,
        result: c.result,
        ...(c.parts ? { parts: c.parts } : {}),
      };
      const key = JSON.stringify(call);
      if (seen.has(key)) continue;
      if (out.length >= MAX_MCP_CALLS) {
        notes.push(
          `more than ${MAX_MCP_CALLS} distinct MCP calls were recorded; the replay answers the first ${MAX_MCP_CALLS}`,
        );
        return out;
      }
      seen.add(key);
      out.push(call);
    }
  }
  return out;
}
