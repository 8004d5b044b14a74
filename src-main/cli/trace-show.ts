import {
  describeSkipped,
  liveSinceOf,
  taskInterrupted,
  type SessionSummary,
  type TaskSummary,
  type TraceStore,
} from '../trace';
import { columns, formatDuration, formatTime, ruler } from './format';
import { UserError } from './errors';

// The summary docs/door.md (the terminal) describes: a Session block, a Tasks table (turns, tokens in/out,
// status, duration), a Harness block where a harness ran; or the raw events, filtered.

const shortTask = (id: string) => id.slice(0, 12);

function sessionBlock(s: SessionSummary): string[] {
  const end = s.endedAt ?? (s.status === 'running' ? Date.now() : s.lastTs);
  const status =
    s.status === 'ended'
      ? `ended${s.endReason ? ` (${s.endReason})` : ''}`
      : s.status === 'running'
        ? 'running'
        : 'interrupted (no session_end; the process is gone)';
  const lines = [
    ruler('Session'),
    `session:    ${s.id}`,
    `capsule:    ${s.capsule ?? '?'}${s.version ? ` v${s.version}` : ''}`,
    `started:    ${formatTime(s.startedAt)}`,
    `duration:   ${s.startedAt && end ? formatDuration(end - s.startedAt) : '-'}${s.status === 'running' ? ' so far' : ''}`,
    `status:     ${status}`,
    `tokens:     in: ${s.tokensIn}  out: ${s.tokensOut}`,
  ];
  if (s.url) lines.push(`url:        ${s.url}`);
  if (s.model || s.driver) lines.push(`model:      ${s.model ?? '?'} (${s.driver ?? '?'})`);
  if (s.parentId) lines.push(`parent:     ${s.parentId}`);
  if (s.tracePath) lines.push(`trace:      ${s.tracePath}`);
  if (s.tornBytes)
    lines.push(
      `note:       the last line of trace.jsonl is incomplete (${s.tornBytes} bytes, a crash mid-write?); it was skipped`,
    );
  const skipped = describeSkipped({ bad: s.badLines, deep: s.deepLines, long: s.longLines, foreign: s.foreignLines });
  if (skipped) lines.push(`note:       skipped ${skipped} of trace.jsonl`);
  return lines;
}

/** A task's outcome: its exit status, else interrupted (trace/outcome.ts), else its state. */
function outcome(t: TaskSummary, sessionLive: boolean, liveSince: number | null): string {
  if (t.exitStatus) return t.exitStatus;
  if (taskInterrupted(t, sessionLive, liveSince)) return 'interrupted';
  return t.state === 'TASK_STATE_WORKING' ? 'running' : t.state.replace('TASK_STATE_', '').toLowerCase();
}

function tasksBlock(tasks: TaskSummary[], sessionLive: boolean, liveSince: number | null): string[] {
  if (!tasks.length) return [ruler('Tasks'), 'no tasks'];
  const rows = tasks.map((t) => [
    `task ${t.ord}`,
    shortTask(t.id),
    `turns: ${t.turns}`,
    `in: ${t.tokensIn}`,
    `out: ${t.tokensOut}`,
    outcome(t, sessionLive, liveSince),
    formatDuration(t.durationMs ?? (t.endedAt && t.startedAt ? t.endedAt - t.startedAt : null)),
  ]);
  const lines = columns(rows);
  const out = [ruler('Tasks')];
  tasks.forEach((t, i) => {
    out.push(lines[i]);
    if (t.failure) out.push(`        ${t.exitStatus === 'canceled' ? 'canceled' : 'failed'}: ${t.failure}`);
  });
  return out;
}

const HIDDEN = new Set(['ts', 'event_type', 'session_id', 'task_id', 'seq']);

function harnessBlock(store: TraceStore, s: SessionSummary, tasks: TaskSummary[]): string[] {
  const page = store.events(s.id, {
    types: ['harness_start', 'harness_interrupt', 'harness_exit', 'harness_kill', 'harness_resume'],
    limit: 200,
  });
  if (!page.events.length) return [];
  const ords = new Map(tasks.map((t) => [t.id, t.ord]));
  const rows = page.events.map((e) => {
    const at = s.startedAt ? `+${formatDuration(Date.parse(e.ts) - s.startedAt)}` : e.ts;
    const detail = Object.entries(e)
      .filter(([k]) => !HIDDEN.has(k))
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join('  ');
    return [at, e.task_id ? `task ${ords.get(e.task_id) ?? '?'}` : '', e.event_type.replace(/^harness_/, ''), detail];
  });
  return [ruler('Harness'), ...columns(rows)];
}

export function printSummary(store: TraceStore, s: SessionSummary): void {
  const tasks = store.listTasks(s.id);
  const liveSince = liveSinceOf(store, s);
  const lines = [
    ...sessionBlock(s),
    ...tasksBlock(tasks, s.status === 'running', liveSince),
    ...harnessBlock(store, s, tasks),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** A task named by full id, `task N`'s N, or the first/last 4+ characters of its id. */
export function resolveTask(tasks: TaskSummary[], ref: string): TaskSummary {
  const byOrd = /^\d+$/.test(ref) ? tasks.find((t) => t.ord === Number(ref)) : undefined;
  if (byOrd) return byOrd;
  const hits = tasks.filter((t) => t.id === ref || (ref.length >= 4 && (t.id.startsWith(ref) || t.id.endsWith(ref))));
  if (hits.length === 1) return hits[0];
  if (hits.length > 1)
    throw new UserError(`--task ${ref} matches ${hits.length} tasks; use more characters or the task number`);
  throw new UserError(`no task ${ref} in this session (it has ${tasks.length})`);
}

export function printEvents(store: TraceStore, s: SessionSummary, opts: { task?: string; types?: string[] }): void {
  const task = opts.task ? resolveTask(store.listTasks(s.id), opts.task).id : undefined;
  let afterSeq: number | undefined;
  for (;;) {
    const page = store.events(s.id, { task, types: opts.types, afterSeq, limit: 5000 });
    if (page.events.length)
      process.stdout.write(page.events.map(({ seq: _seq, ...e }) => JSON.stringify(e)).join('\n') + '\n');
    if (page.nextSeq === null) return;
    afterSeq = page.nextSeq;
  }
}
