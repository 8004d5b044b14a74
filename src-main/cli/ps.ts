import { listRunningSessions, type RunningSession } from '../trace';
import type { Task } from '../../src-shared/a2a';
// The client alone, not the door's index: a command that only calls doors need not load fastify.
import { callDoor } from '../door/client';
import { parseCommandArgs } from './args';
import { columns, formatDuration } from './format';
import { layout } from './home';
import { ADDRESS_RULE_HELP } from './session-help';

// `capsule ps`: the sessions running on this machine (files of dead processes are pruned), each
// asked by its door whether a task is working right now.

export const usage = `usage: capsule ps [--json]
Lists running capsule sessions: name, url, session id, age, busy/idle.
${ADDRESS_RULE_HELP}`;

type Activity = 'busy' | 'idle' | 'unreachable';

async function activity(s: RunningSession): Promise<Activity> {
  try {
    const answer = (await callDoor(
      s.url,
      'ListTasks',
      { status: 'TASK_STATE_WORKING', pageSize: 1 },
      { timeoutMs: 2000 },
    )) as { tasks?: Task[]; totalSize?: number } | undefined;
    return (answer?.tasks?.length ?? 0) > 0 || (answer?.totalSize ?? 0) > 0 ? 'busy' : 'idle';
  } catch {
    return 'unreachable';
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('ps', argv, { json: { type: 'boolean' } } as const, usage);
  const running = listRunningSessions(layout().running);
  const states = await Promise.all(running.map(activity));
  const now = Date.now();
  if (values.json) {
    const rows = running.map((s, i) => ({
      session_id: s.id,
      name: s.name,
      version: s.version,
      url: s.url,
      pid: s.pid,
      started_at: new Date(s.startedAt).toISOString(),
      state: states[i],
    }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (!running.length) {
    process.stdout.write('no capsule sessions running\n');
    return 0;
  }
  const rows = [['#', 'NAME', 'URL', 'SESSION', 'AGE', 'STATE']];
  running.forEach((s, i) =>
    rows.push([`@${i + 1}`, s.name, s.url, s.id, formatDuration(now - s.startedAt), states[i]]),
  );
  process.stdout.write(`${columns(rows).join('\n')}\n`);
  return 0;
}
