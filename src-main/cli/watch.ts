import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceEvent } from '../../src-shared/trace';
// The client alone, not the door's index: a command that only calls doors need not load fastify.
import { door, DoorError } from '../door/client';
import { readTraceLines, resolveRunningSession, sessionIdOfTrace } from '../trace';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { formatDuration } from './format';
import { layout } from './home';
import { RUNNING_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';
import { residueLine } from './residue';
import { parseResidueList } from '../../src-shared/residue';

// `capsule watch <session>` / `capsule watch --url <door>`: murmur.WatchSession, printed as it
// happens (tasks, turns with tokens, tool calls and results, completion), until the session ends.
// The door closes before the session writes session_end, so for a local session the last line
// is read from its trace file once the stream has closed. A stream that closes while the door
// still answers (its life cap) is resumed from the next seq, so nothing is skipped or repeated.

export const usage = `usage: capsule watch <session> [--from start|now|<seq>]
       capsule watch --url <door> [--from start|now|<seq>]
  <session>  ${RUNNING_ADDRESS_HELP}
  --url      a door's address, e.g. localhost:52222 or http://127.0.0.1:52222
  --from     where to start: now (default), start (the whole trace so far), or a trace line number
${ADDRESS_RULE_HELP}`;

const MAX_TEXT = 160;
const clip = (s: string, max = MAX_TEXT) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
const short = (id: unknown) => (typeof id === 'string' ? id.slice(-8) : '?');

/** One readable line for a trace event, or undefined for events not worth a line. */
export function watchLine(event: TraceEvent): string | undefined {
  const e = event as TraceEvent & Record<string, any>;
  const task = e.task_id ? `[${short(e.task_id)}] ` : '';
  switch (e.event_type) {
    case 'session_start':
      return `session ${e.session_id}  ${e.capsule} v${e.version}  ${e.url}  model ${e.model}`;
    case 'a2a_task_received':
      return `${task}task received${e.peer ? ` from ${e.peer}` : ''}: “${clip(e.text ?? '')}”`;
    case 'task_start':
      return `${task}task started`;
    case 'inference': {
      const calls =
        Array.isArray(e.tool_calls) && e.tool_calls.length
          ? `  calls ${e.tool_calls.map((c: { name: string }) => c.name).join(', ')}`
          : '';
      const text = e.text ? `  “${clip(e.text)}”` : '';
      return `${task}turn ${e.turn}  in ${e.tokens_in} out ${e.tokens_out}  ${e.stop_reason}  ${formatDuration(e.duration_ms)}${calls}${text}`;
    }
    case 'tool_call':
      return `${task}  → ${e.name} ${clip(JSON.stringify(e.arguments ?? {}), 120)}`;
    case 'tool_result':
      return `${task}  ← ${e.name} ${e.ok ? 'ok' : 'error'}: ${clip(String(e.result ?? ''), 120)}`;
    case 'task_failed':
      return `${task}task failed (${e.cause}): ${clip(e.message ?? '')}`;
    case 'task_canceled': {
      const left = parseResidueList(e.residue).map(residueLine);
      return `${task}task canceled by ${e.by ?? '?'}${left.length ? `  ${left.join('; ')}` : ''}`;
    }
    case 'task_end':
      return `${task}task ${e.exit_status}  ${e.state}  turns ${e.turns}  in ${e.tokens_in} out ${e.tokens_out}  ${formatDuration(e.duration_ms)}${e.answer ? `  “${clip(e.answer)}”` : ''}`;
    case 'push_delivered':
      return `${task}push delivered to ${e.url} (HTTP ${e.status}, attempt ${e.attempts})`;
    case 'push_failed':
      return `${task}push failed to ${e.url} after ${e.attempts} attempt(s): ${e.error}`;
    case 'session_end':
      return `session ended (${e.reason})  tasks ${e.tasks}  in ${e.tokens_in} out ${e.tokens_out}`;
    default:
      return `${task}${e.event_type}`;
  }
}

function doorUrl(raw: string): string {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  try {
    return new URL(url).toString().replace(/\/$/, '');
  } catch {
    throw new UserError(`--url ${raw}: not a door address (try localhost:52222)`, 2);
  }
}

function parseFrom(value: string | undefined): 'now' | 'start' | number {
  if (value === undefined || value === 'now' || value === 'start') return value ?? 'now';
  if (/^\d+$/.test(value) && Number(value) >= 1) return Number(value);
  throw new UserError(`--from must be now, start or a trace line number (1, 2, …), not "${value}"`, 2);
}

type StreamEnd = { ended: boolean; lastSeq: number; reachable: boolean };

/** Reads one WatchSession stream, printing as it goes. */
async function follow(url: string, from: 'now' | 'start' | number, out: (line: string) => void): Promise<StreamEnd> {
  let lastSeq = 0;
  let ended = false;
  try {
    for await (const { seq, event } of door.watchSession(url, from)) {
      lastSeq = seq;
      const line = watchLine(event as TraceEvent);
      if (line) out(line);
      if (event.event_type === 'session_end') ended = true;
    }
  } catch (err) {
    // Not there (or closing: its session is ending), refused, or the connection dropped
    // mid-stream, in which case the caller decides whether the door is still there.
    if (err instanceof DoorError && err.kind === 'unreachable') return { ended, lastSeq, reachable: false };
    if (err instanceof DoorError) throw new UserError(`the door at ${url} refused murmur.WatchSession: ${err.message}`);
  }
  return { ended, lastSeq, reachable: true };
}

/** A session_end line is a few hundred bytes: this much of the file's end holds it. */
const TAIL_BYTES = 64 * 1024;

/** The session_end line of a local session's trace, waited for briefly (it follows the door's close). */
async function sessionEndFromTrace(workdir: string, out: (line: string) => void): Promise<boolean> {
  const path = join(workdir, 'trace.jsonl');
  const until = Date.now() + 3000;
  while (Date.now() < until) {
    if (existsSync(path)) {
      // Only the file's tail, read by the readers' rules (the cut first line is skipped as bad).
      const last = readTraceLines(
        path,
        Math.max(0, statSync(path).size - TAIL_BYTES),
        Infinity,
        sessionIdOfTrace(path),
      ).lines.at(-1)?.event;
      if (last?.event_type === 'session_end') {
        const line = watchLine(last as TraceEvent);
        if (line) out(line);
        return true;
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

export async function main(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'watch',
    argv,
    { url: { type: 'string' }, from: { type: 'string' } },
    usage,
  );
  if (values.url ? positionals.length !== 0 : positionals.length !== 1)
    throw new UserError(`watch needs one session or --url\n${usage}`, 2);
  let from = parseFrom(values.from);
  const local = values.url ? undefined : resolveRunningSession(positionals[0], layout().running);
  const url = values.url ? doorUrl(values.url) : local!.url;
  let connected = false;
  for (;;) {
    const end = await follow(url, from, out);
    if (!end.reachable) {
      if (!connected) throw new UserError(`the door at ${url} does not answer`);
      break;
    }
    connected = true;
    if (end.ended) return 0;
    // Closed without session_end: the session is ending (its door closes first) or the stream
    // reached its life cap. Resume after the last line seen; a door that is gone means the end.
    if (end.lastSeq) from = end.lastSeq + 1;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (local) await sessionEndFromTrace(local.workdir, out);
  else out('session ended (the door closed)');
  return 0;
}
