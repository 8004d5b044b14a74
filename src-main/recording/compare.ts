import type { DiffField, DiffTaskRow, DiffTaskSide, DiffTurnRow, DiffTurnSide } from '../../src-shared/contract';
import type { RecordedSession, RecordedTask, RecordedTurn } from './tasks';

// Two runs side by side: tasks aligned (a fork's task with the task it was forked from, the rest
// in order), their turns aligned by number, and every field that differs named, so the view can
// highlight it. Pure: recorded sessions in, rows out.

/** Bounds of one comparison: tasks per run, turns per task, characters per text and tool call shown, calls per turn. */
export const MAX_DIFF_TASKS = 200;
export const MAX_DIFF_TURNS = 256;
export const MAX_DIFF_TEXT = 2000;
const MAX_CALL_TEXT = 500;
const MAX_CALLS = 32;
/** Characters of text in one answer (about its size in bytes): turns past it are left out, and truncated says so. */
export const MAX_DIFF_CHARS = 2_000_000;
/** Delegations listed per task and run. */
const MAX_DELEGATIONS = 64;

const clip = (s: string, max = MAX_DIFF_TEXT) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function callText(name: string, args: Record<string, unknown>): string {
  return clip(`${name} ${JSON.stringify(args)}`, MAX_CALL_TEXT);
}

function turnSide(t: RecordedTurn, replayed: boolean): DiffTurnSide {
  const calls = t.toolCalls.slice(0, MAX_CALLS).map((c) => callText(c.name, c.arguments));
  if (t.toolCalls.length > MAX_CALLS) calls.push(`… ${t.toolCalls.length - MAX_CALLS} more`);
  return { text: clip(t.text), calls, tokensIn: t.tokensIn, tokensOut: t.tokensOut, replayed };
}

const sizeOf = (t: DiffTurnSide | null) => (t ? t.text.length + t.calls.reduce((n, c) => n + c.length, 0) + 64 : 0);

function delegationsOf(task: RecordedTask): string[] {
  const all = task.turns.flatMap((t) => t.toolCalls.filter((c) => c.name === 'delegate_task'));
  const shown = all
    .slice(0, MAX_DELEGATIONS)
    .map((c) => clip(`${String(c.arguments.to ?? '')}: ${String(c.arguments.text ?? '')}`, MAX_CALL_TEXT));
  return all.length > MAX_DELEGATIONS ? [...shown, `… ${all.length - MAX_DELEGATIONS} more`] : shown;
}

function taskSide(task: RecordedTask): DiffTaskSide {
  const tokensIn = task.turns.reduce((n, t) => n + t.tokensIn, 0);
  const tokensOut = task.turns.reduce((n, t) => n + t.tokensOut, 0);
  return {
    taskId: task.taskId,
    message: clip(task.text),
    answer: task.answer === undefined ? null : clip(task.answer),
    state: task.exitStatus ?? (task.failure ? 'failed' : null),
    tokensIn,
    tokensOut,
    delegations: delegationsOf(task),
  };
}

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

function turnRows(
  a: RecordedTask | undefined,
  b: RecordedTask | undefined,
  forkTurnA: number,
  forkTurnB: number,
  budget: { chars: number },
): { rows: DiffTurnRow[]; cut: boolean } {
  const n = Math.max(a?.turns.length ?? 0, b?.turns.length ?? 0);
  const rows: DiffTurnRow[] = [];
  for (let i = 0; i < Math.min(n, MAX_DIFF_TURNS); i++) {
    if (budget.chars <= 0) return { rows, cut: true };
    const ta = a?.turns[i];
    const tb = b?.turns[i];
    const sa = ta ? turnSide(ta, i + 1 < forkTurnA) : null;
    const sb = tb ? turnSide(tb, i + 1 < forkTurnB) : null;
    const differs: DiffField[] = [];
    if (!sa || !sb) differs.push('text', 'calls', 'tokens');
    else {
      if (sa.text !== sb.text) differs.push('text');
      if (!same(sa.calls, sb.calls)) differs.push('calls');
      if (sa.tokensIn !== sb.tokensIn || sa.tokensOut !== sb.tokensOut) differs.push('tokens');
    }
    rows.push({ turn: i + 1, a: sa, b: sb, differs });
    budget.chars -= sizeOf(sa) + sizeOf(sb);
  }
  return { rows, cut: n > MAX_DIFF_TURNS };
}

/** Pairs of tasks to compare: a fork's task beside the task it came from, then the rest in order. */
/** A fork's own task (the others before it replayed its origin's conversation). */
function forkTaskOf(s: RecordedSession): RecordedTask | undefined {
  if (!s.forkedFrom) return undefined;
  return (s.forkedFrom.messageId && s.tasks.find((t) => t.messageId === s.forkedFrom!.messageId)) || s.tasks[0];
}

function pairs(a: RecordedSession, b: RecordedSession): [RecordedTask | undefined, RecordedTask | undefined][] {
  const out: [RecordedTask | undefined, RecordedTask | undefined][] = [];
  const usedA = new Set<RecordedTask>();
  const usedB = new Set<RecordedTask>();
  const link = (x: RecordedTask | undefined, y: RecordedTask | undefined) => {
    if (!x || !y || usedA.has(x) || usedB.has(y)) return;
    usedA.add(x);
    usedB.add(y);
    out.push([x, y]);
  };
  if (b.forkedFrom?.sessionId === a.sessionId)
    link(
      a.tasks.find((t) => t.taskId === b.forkedFrom!.taskId),
      forkTaskOf(b),
    );
  if (a.forkedFrom?.sessionId === b.sessionId)
    link(
      forkTaskOf(a),
      b.tasks.find((t) => t.taskId === a.forkedFrom!.taskId),
    );
  // Two forks of one task: their own tasks go side by side.
  if (
    a.forkedFrom &&
    b.forkedFrom &&
    a.forkedFrom.sessionId === b.forkedFrom.sessionId &&
    a.forkedFrom.taskId === b.forkedFrom.taskId
  )
    link(forkTaskOf(a), forkTaskOf(b));
  const restA = a.tasks.filter((t) => !usedA.has(t));
  const restB = b.tasks.filter((t) => !usedB.has(t));
  for (let i = 0; i < Math.max(restA.length, restB.length); i++) out.push([restA[i], restB[i]]);
  return out;
}

/** The turn a fork's task starts at (the turns before it were replayed; all of an earlier task's were), 0 if none was. */
function forkTurnOf(s: RecordedSession, task: RecordedTask | undefined): number {
  const own = forkTaskOf(s);
  if (!own || !task) return 0;
  if (task === own) return s.forkedFrom!.turn;
  return s.tasks.indexOf(task) < s.tasks.indexOf(own) ? Infinity : 0;
}

export function compareRuns(
  a: RecordedSession,
  b: RecordedSession,
): { tasks: DiffTaskRow[]; changed: number; truncated: boolean } {
  const all = pairs(a, b);
  let truncated = all.length > MAX_DIFF_TASKS;
  let changed = 0;
  const budget = { chars: MAX_DIFF_CHARS };
  const tasks = all.slice(0, MAX_DIFF_TASKS).map(([ta, tb]): DiffTaskRow => {
    const sa = ta ? taskSide(ta) : null;
    const sb = tb ? taskSide(tb) : null;
    const differs: DiffField[] = [];
    if (!sa || !sb) differs.push('message', 'answer');
    else {
      if (sa.message !== sb.message) differs.push('message');
      if (sa.answer !== sb.answer) differs.push('answer');
      if (sa.state !== sb.state) differs.push('state');
      if (sa.tokensIn !== sb.tokensIn || sa.tokensOut !== sb.tokensOut) differs.push('tokens');
      if (!same(sa.delegations, sb.delegations)) differs.push('delegations');
    }
    const taskSize = (t: DiffTaskSide | null) =>
      t ? t.message.length + (t.answer?.length ?? 0) + t.delegations.reduce((n, d) => n + d.length + 8, 0) : 0;
    budget.chars -= taskSize(sa) + taskSize(sb);
    const { rows, cut } = turnRows(ta, tb, forkTurnOf(a, ta), forkTurnOf(b, tb), budget);
    if (cut) truncated = true;
    changed += (differs.length ? 1 : 0) + rows.filter((r) => r.differs.length).length;
    return { a: sa, b: sb, differs, turns: rows };
  });
  return { tasks, changed, truncated };
}
