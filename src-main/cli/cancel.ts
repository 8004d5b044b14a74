import { resolveRunningSession } from '../trace';
import { door, DoorError } from '../door/client';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { layout } from './home';
import { residueLine } from './residue';
import { RUNNING_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';

// `capsule cancel <session> <task-id>`: CancelTask to that session's door. A task that already
// ended is "nothing to cancel" (exit 0), as docs/door.md says; an unknown task is an error.

export const usage = `usage: capsule cancel <session> <task-id>
  <session>  ${RUNNING_ADDRESS_HELP}
  <task-id>  the task id SendMessage returned (or its last 4+ characters)
${ADDRESS_RULE_HELP}`;

/** A full task id from its last characters, asking the door for the session's tasks. */
async function fullTaskId(url: string, id: string): Promise<string> {
  if (/^tsk_[0-9a-f]{32}$/.test(id) || id.length < 4) return id;
  const hits = (await door.listTasks(url, 100).catch(() => [])).filter((t) => t.id.endsWith(id));
  if (hits.length > 1)
    throw new UserError(
      `${id} matches ${hits.length} tasks; use more characters:\n${hits.map((t) => `  ${t.id}`).join('\n')}`,
    );
  return hits[0]?.id ?? id;
}

export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseCommandArgs('cancel', argv, {}, usage);
  if (positionals.length !== 2) throw new UserError(`cancel needs a session and a task id\n${usage}`, 2);
  const session = resolveRunningSession(positionals[0], layout().running);
  const taskId = await fullTaskId(session.url, positionals[1]);
  let answer;
  try {
    answer = await door.cancelTask(session.url, taskId);
  } catch (err) {
    if (!(err instanceof DoorError) || err.kind !== 'rpc') throw err;
    if (err.code === -32002) {
      const state = err.metadata.state ?? /already (\S+)/.exec(err.message)?.[1] ?? 'final';
      process.stdout.write(`nothing to cancel: task ${taskId} is already ${state}\n`);
      return 0;
    }
    if (err.code === -32001) throw new UserError(`task ${taskId} not found in session ${session.id} (${session.name})`);
    throw new UserError(`cancel refused by ${session.name}: ${err.message}`);
  }
  process.stdout.write(`task ${answer.task.id}: ${answer.task.status.state}\n`);
  for (const item of answer.residue) process.stdout.write(`${residueLine(item)}\n`);
  return 0;
}
