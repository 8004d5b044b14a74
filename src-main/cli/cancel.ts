import type { Task } from '../../src-shared/a2a';
import { resolveRunningSession } from '../trace';
import { parseCommandArgs } from './args';
import { callDoor, errorMetadata } from './door-client';
import { UserError } from './errors';
import { layout } from './home';
import { residueLine } from './residue';

// `capsule cancel <session> <task-id>`: CancelTask to that session's door. A task that already
// ended is "nothing to cancel" (exit 0), as seed 000 says; an unknown task is an error.

export const usage = `usage: capsule cancel <session> <task-id>
  <session>  @1 (newest), @2, …, the last 4+ characters of a session id, the full id, or a trace.jsonl path
  <task-id>  the task id SendMessage returned (or its last 4+ characters)`;

/** A full task id from its last characters, asking the door for the session's tasks. */
async function fullTaskId(url: string, id: string): Promise<string> {
  if (/^tsk_[0-9a-f]{32}$/.test(id) || id.length < 4) return id;
  const answer = await callDoor<{ tasks?: Task[] }>(url, 'ListTasks', { pageSize: 100 });
  const hits = (answer.result?.tasks ?? []).filter((t) => t.id.endsWith(id));
  if (hits.length > 1) throw new UserError(`${id} matches ${hits.length} tasks; use more characters:\n${hits.map((t) => `  ${t.id}`).join('\n')}`);
  return hits[0]?.id ?? id;
}

export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseCommandArgs('cancel', argv, {}, usage);
  if (positionals.length !== 2) throw new UserError(`cancel needs a session and a task id\n${usage}`, 2);
  const session = resolveRunningSession(positionals[0], layout().running);
  const taskId = await fullTaskId(session.url, positionals[1]);
  const answer = await callDoor<Task>(session.url, 'CancelTask', { id: taskId });
  if (answer.error) {
    const { code, message } = answer.error;
    if (code === -32002) {
      const state = errorMetadata(answer.error).state ?? /already (\S+)/.exec(message)?.[1] ?? 'final';
      process.stdout.write(`nothing to cancel: task ${taskId} is already ${state}\n`);
      return 0;
    }
    if (code === -32001) throw new UserError(`task ${taskId} not found in session ${session.id} (${session.name})`);
    throw new UserError(`cancel refused by ${session.name} (${code}): ${message}`);
  }
  const task = answer.result;
  process.stdout.write(`task ${task.id}: ${task.status.state}\n`);
  const residue = task.artifacts?.find((a) => a.name === 'residue' || a.artifactId === 'residue');
  for (const part of residue?.parts ?? []) if (part.data && typeof part.data === 'object') process.stdout.write(`${residueLine(part.data as Record<string, unknown>)}\n`);
  return 0;
}
