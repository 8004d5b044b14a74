import type { RecordedRun } from './gather';
import type { RecordedTask } from './tasks';

// Who was asked what, and what they answered: the delegations of a recorded task and of every
// task they caused, depth first in the order the model made the calls (a fixed order, unlike the
// order parallel delegations happened to start in). `capsule test` compares a new run's list
// with this one.

export interface AskedDelegation {
  /** The capsule that delegated. */
  from: string;
  /** The capsule that was asked (as it named itself), or the address the model gave. */
  to: string;
  text: string;
  data?: Record<string, unknown>;
  /** The tool result the delegating model received. */
  answer: string;
}

export interface AskedTask {
  text: string;
  answer?: string;
  exitStatus?: string;
  delegations: AskedDelegation[];
}

export function askedOfRun(run: RecordedRun): AskedTask[] {
  const byTraceparent = new Map<string, { capsule: string; task: RecordedTask }>();
  for (const c of run.capsules)
    for (const t of c.tasks) if (t.traceparent) byTraceparent.set(t.traceparent, { capsule: c.capsule, task: t });
  const entry = run.capsules.find((c) => c.capsule === run.entry);
  const walk = (capsule: string, task: RecordedTask, out: AskedDelegation[], depth: number) => {
    const used = new Set<number>();
    for (const turn of task.turns) {
      turn.toolCalls.forEach((call, i) => {
        if (call.name !== 'delegate_task') return;
        const to = String(call.arguments.to ?? '');
        const at = task.delegations.findIndex((d, j) => !used.has(j) && d.to === to);
        if (at >= 0) used.add(at);
        const d = task.delegations[at];
        const data = call.arguments.data;
        out.push({
          from: capsule,
          to: d?.capsule || to,
          text: String(call.arguments.text ?? ''),
          ...(data && typeof data === 'object' ? { data: data as Record<string, unknown> } : {}),
          answer: turn.results[i] ?? '',
        });
        const caused = d?.traceparent ? byTraceparent.get(d.traceparent) : undefined;
        if (caused && depth < 16) walk(caused.capsule, caused.task, out, depth + 1);
      });
    }
  };
  return (entry?.tasks ?? []).map((task) => {
    const delegations: AskedDelegation[] = [];
    walk(run.entry, task, delegations, 0);
    return {
      text: task.text,
      ...(task.answer !== undefined ? { answer: task.answer } : {}),
      ...(task.exitStatus ? { exitStatus: task.exitStatus } : {}),
      delegations,
    };
  });
}
