import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compareRuns, recordedSession } from '../../src-main/recording';

// The biggest comparison the sessions browser asks for: two runs far over the bounds (1,000 tasks
// of 300 turns, each turn a 300-character text and a delegation), compared task by task and turn
// by turn. Reports what is compared (the bounds cut it to 200 tasks × 256 turns), the bytes the
// answer takes on the wire (the number that matters for the UI; machine-independent) and the time
// it took here. Usage: node -r tsx/cjs bench/fork-compare/compare.ts [--smoke] [--out FILE]

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const outArg = args.indexOf('--out');
const out = resolve(outArg >= 0 ? args[outArg + 1] : join(__dirname, '..', 'results', 'fork-compare.json'));
const TASKS = smoke ? 50 : 1000;
const TURNS = smoke ? 20 : 300;

function lines(id: string, variant: string): Record<string, unknown>[] {
  const l: Record<string, unknown>[] = [{ event_type: 'session_start', session_id: id, capsule: 'coordinator' }];
  for (let t = 0; t < TASKS; t++) {
    const task = `tsk_${id}_${t}`;
    l.push({
      event_type: 'a2a_task_received',
      task_id: task,
      context_id: `c${t}`,
      text: `Request ${t} ${variant}`.padEnd(300, '.'),
    });
    for (let n = 1; n <= TURNS; n++) {
      l.push({
        event_type: 'inference',
        task_id: task,
        turn: n,
        text: `Turn ${n} of ${t} ${n % 7 === 0 ? variant : ''}`.padEnd(300, '-'),
        tool_calls: [{ id: `c${n}`, name: 'delegate_task', arguments: { to: 'researcher', text: `facts ${n}` } }],
        tokens_in: 100 + n,
        tokens_out: 20,
      });
    }
    l.push({ event_type: 'task_end', task_id: task, exit_status: 'ok', answer: `Answer ${t} ${variant}` });
  }
  return l;
}

const a = recordedSession(lines('a', 'one'));
const b = recordedSession(lines('b', 'two'));
const started = performance.now();
const diff = compareRuns(a, b);
const ms = performance.now() - started;
const result = {
  smoke,
  input: { tasks: TASKS, turns_per_task: TURNS },
  compared: {
    tasks: diff.tasks.length,
    turns: diff.tasks.reduce((n, t) => n + t.turns.length, 0),
    truncated: diff.truncated,
    changed: diff.changed,
  },
  answer_bytes: Buffer.byteLength(JSON.stringify(diff)),
  compare_ms: Math.round(ms * 10) / 10,
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2));
process.stdout.write(`${JSON.stringify(result)}\n`);
