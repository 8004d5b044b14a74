import { describe, expect, it } from 'vitest';
import { matchesWhen } from '../drivers';
import { exactWhen, recordedSession, scriptFromTasks } from './index';

// The pure conversion: trace lines -> recorded tasks -> a rehearsal script.

const T1 = 'tsk_' + '1'.repeat(32);
const T2 = 'tsk_' + '2'.repeat(32);
const T3 = 'tsk_' + '3'.repeat(32);
const line = (event_type: string, task_id: string, rest: Record<string, unknown> = {}) => ({
  ts: '2026-01-01T00:00:00.000Z',
  event_type,
  session_id: 'ses_x',
  task_id,
  ...rest,
});
const inference = (
  task: string,
  turn: number,
  text: string,
  duration_ms: number,
  extra: Record<string, unknown> = {},
) =>
  line('inference', task, {
    turn,
    text,
    tokens_in: 10,
    tokens_out: 2,
    stop_reason: 'end_turn',
    tool_calls: [],
    duration_ms,
    ...extra,
  });

describe('a recording as a rehearsal script', () => {
  it('keeps texts, tokens, stop reasons and failures; tasks alike but for timing make one reply', () => {
    const lines = [
      {
        ts: '2026-01-01T00:00:00.000Z',
        event_type: 'session_start',
        session_id: 'ses_x',
        capsule: 'c',
        version: '1',
        model: 'm',
        driver: 'anthropic',
      },
      line('a2a_task_received', T1, { text: 'Plan (a) trip?', context_id: 'x' }),
      inference(T1, 1, 'half', 400, { stop_reason: 'max_tokens' }),
      inference(T1, 2, 'done', 100),
      line('task_end', T1, { exit_status: 'ok', answer: 'halfdone' }),
      line('a2a_task_received', T2, { text: 'Plan (a) trip?' }),
      inference(T2, 1, 'half', 900, { stop_reason: 'max_tokens' }),
      inference(T2, 2, 'done', 50),
      line('a2a_task_received', T3, { text: 'fail' }),
      line('task_failed', T3, { cause: 'inference_error', message: 'upstream 529: overloaded' }),
    ];
    const session = recordedSession(lines);
    expect(session).toMatchObject({ capsule: 'c', model: 'm', driver: 'anthropic' });
    const { script, notes } = scriptFromTasks(session.tasks, { sessionId: 'ses_x', speed: 2 });
    expect(notes).toEqual([]);
    expect(script.replies).toEqual([
      {
        when: exactWhen('Plan (a) trip?'),
        turns: [
          { text: 'half', delay_ms: 200, tokens_in: 10, tokens_out: 2, stop: 'max_tokens' },
          { text: 'done', delay_ms: 50, tokens_in: 10, tokens_out: 2 },
        ],
      },
      { when: '/^fail$/', turns: [{ error: 'upstream 529: overloaded' }] },
    ]);
    expect(matchesWhen(exactWhen('Plan (a) trip?'), 'Plan (a) trip?')).toBe(true);
    expect(matchesWhen(exactWhen('Plan (a) trip?'), 'Plan (a) trip? Now')).toBe(false);
    expect(matchesWhen(exactWhen('a/b\nc.*'), 'a/b\nc.*')).toBe(true);
  });

  it('says when two tasks with the same text went differently, and hangs where a task was canceled', () => {
    const tasks = recordedSession([
      line('a2a_task_received', T1, { text: 'go' }),
      inference(T1, 1, 'one way', 1),
      line('a2a_task_received', T2, { text: 'go' }),
      inference(T2, 1, 'another way', 1),
      line('a2a_task_received', T3, { text: 'slow' }),
      line('task_canceled', T3, { interrupted: 'inference turn 1' }),
    ]).tasks;
    const { script, notes } = scriptFromTasks(tasks, { sessionId: 'ses_x', speed: 0 });
    expect(notes).toEqual([
      `task ${T2} has the same text as task ${T1} but went differently; the replay answers both as ${T1}`,
    ]);
    const literal = recordedSession([
      line('a2a_task_received', T1, { text: 'x' }),
      inference(T1, 1, 'use {{task}} here', 1),
    ]).tasks;
    expect(scriptFromTasks(literal, { sessionId: 'ses_x', speed: 0 }).notes).toEqual([
      `task ${T1}: a recorded text holds {{task}} or {{tool_results}}, which the replay fills in`,
    ]);
    expect(script.replies.map((r) => r.turns)).toEqual([
      [{ text: 'one way', tokens_in: 10, tokens_out: 2 }],
      [{ hang: true }],
    ]);
  });
});
