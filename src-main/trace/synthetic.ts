import { newTaskId } from '../../src-shared/ids';

// A plausible session's events (received → start → turns with a tool call → end), for the
// store's tests and the ingest benchmark. Not used by the product at runtime.

export interface SyntheticOptions {
  capsule?: string;
  tasks: number;
  /** Inference turns per task (the last one answers). */
  turns?: number;
  /** Word placed in every answer, for search tests. */
  answerWord?: string;
  /** Ends the session with session_end (default true). */
  end?: boolean;
}

type Event = { event_type: string } & Record<string, unknown>;

export function* syntheticSessionEvents(o: SyntheticOptions): Generator<Event> {
  const turns = o.turns ?? 3;
  yield {
    event_type: 'session_start',
    capsule: o.capsule ?? 'my-worker',
    version: '0.1.0',
    url: 'http://127.0.0.1:1',
    manifest_path: 'murmur.yaml',
    driver: 'rehearsal',
    model: 'rehearsal',
    pid: process.pid,
  };
  let tin = 0;
  let tout = 0;
  for (let t = 0; t < o.tasks; t++) {
    const task_id = newTaskId();
    const context_id = `ctx-${t}`;
    yield {
      event_type: 'a2a_task_received',
      task_id,
      context_id,
      message_id: `msg-${t}`,
      method: 'SendMessage',
      text: `Summarise report number ${t} for the weekly review`,
    };
    yield { event_type: 'task_start', task_id, context_id };
    for (let turn = 1; turn <= turns; turn++) {
      const last = turn === turns;
      tin += 300;
      tout += 80;
      yield {
        event_type: 'inference',
        task_id,
        turn,
        tokens_in: 300,
        tokens_out: 80,
        stop_reason: last ? 'end_turn' : 'tool_use',
        text: last ? `Report ${t} is summarised ${o.answerWord ?? ''}` : `Looking at part ${turn} of report ${t}`,
        duration_ms: 12,
      };
      if (!last) {
        yield {
          event_type: 'tool_call',
          task_id,
          call_id: `call_${turn}`,
          name: 'read_file',
          arguments: { path: `report-${t}.md` },
        };
        yield {
          event_type: 'tool_result',
          task_id,
          call_id: `call_${turn}`,
          name: 'read_file',
          ok: true,
          result: 'lines of the report',
        };
      }
    }
    yield {
      event_type: 'task_end',
      task_id,
      exit_status: 'ok',
      state: 'TASK_STATE_COMPLETED',
      turns,
      tokens_in: 300 * turns,
      tokens_out: 80 * turns,
      duration_ms: 40,
      answer: `Report ${t} is summarised ${o.answerWord ?? ''}`.trim(),
    };
  }
  if (o.end !== false)
    yield { event_type: 'session_end', reason: 'stopped', tasks: o.tasks, tokens_in: tin, tokens_out: tout };
}
