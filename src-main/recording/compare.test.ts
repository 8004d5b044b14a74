import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare';
import { recordedSession } from './tasks';

// Two runs side by side: a fork's task is set beside the task it came from (not merely the first),
// turns are aligned by number, and exactly the fields that differ are named.

type Line = Record<string, unknown>;

function run(
  id: string,
  tasks: {
    id: string;
    text: string;
    turns: { text: string; calls?: [string, Record<string, unknown>][]; tin?: number; tout?: number }[];
    answer: string;
  }[],
  forkedFrom?: Line,
): Line[] {
  const lines: Line[] = [
    {
      event_type: 'session_start',
      session_id: id,
      capsule: 'coordinator',
      ...(forkedFrom ? { forked_from: forkedFrom } : {}),
    },
  ];
  for (const t of tasks) {
    lines.push({
      event_type: 'a2a_task_received',
      task_id: t.id,
      context_id: 'c',
      message_id: `m-${t.id}`,
      text: t.text,
    });
    t.turns.forEach((turn, i) =>
      lines.push({
        event_type: 'inference',
        task_id: t.id,
        turn: i + 1,
        text: turn.text,
        tool_calls: (turn.calls ?? []).map(([name, args], j) => ({ id: `c${j}`, name, arguments: args })),
        tokens_in: turn.tin ?? 10,
        tokens_out: turn.tout ?? 2,
      }),
    );
    lines.push({ event_type: 'task_end', task_id: t.id, exit_status: 'ok', answer: t.answer });
  }
  return lines;
}

const delegate = (to: string, text: string): [string, Record<string, unknown>] => ['delegate_task', { to, text }];

describe('compare two runs', () => {
  it("aligns a fork's task with its origin and names what differs per task and turn", () => {
    const a = recordedSession(
      run('ses_a', [
        { id: 't1', text: 'first request', turns: [{ text: 'hi' }], answer: 'hi' },
        {
          id: 't2',
          text: 'Write about tides',
          turns: [
            { text: '', calls: [delegate('researcher', 'facts')] },
            { text: 'Summary A', tin: 30 },
          ],
          answer: 'Summary A',
        },
      ]),
    );
    const b = recordedSession(
      run(
        'ses_b',
        [
          {
            id: 'f1',
            text: 'Write about moons',
            turns: [
              { text: '', calls: [delegate('researcher', 'facts')] },
              { text: 'Summary B', tin: 31 },
            ],
            answer: 'Summary B',
          },
        ],
        { session_id: 'ses_a', task_id: 't2', turn: 2 },
      ),
    );
    const d = compareRuns(a, b);
    expect(d.tasks.map((t) => [t.a?.taskId ?? null, t.b?.taskId ?? null])).toEqual([
      ['t2', 'f1'],
      ['t1', null],
    ]);
    const [fork, alone] = d.tasks;
    expect(fork.differs).toEqual(['message', 'answer', 'tokens']);
    expect(fork.a!.delegations).toEqual(['researcher: facts']);
    expect(fork.turns.map((t) => t.differs)).toEqual([[], ['text', 'tokens']]);
    // The fork's turn 1 came from the recording; the origin's did not.
    expect(fork.turns[0].b!.replayed).toBe(true);
    expect(fork.turns[1].b!.replayed).toBe(false);
    expect(fork.turns[0].a!.replayed).toBe(false);
    expect(fork.turns[0].b!.calls).toEqual(['delegate_task {"to":"researcher","text":"facts"}']);
    expect(alone.differs).toEqual(['message', 'answer']);
    expect(alone.turns[0]).toMatchObject({ b: null, differs: ['text', 'calls', 'tokens'] });
    // Task rows that differ (2) and turn rows that differ (1 + 1).
    expect(d.changed).toBe(4);
    expect(d.truncated).toBe(false);
  });

  it('finds nothing to mark in two identical runs, and aligns other runs in order', () => {
    const tasks = [
      {
        id: 'x',
        text: 'go',
        turns: [{ text: '', calls: [delegate('writer', 'draft')] }, { text: 'done' }],
        answer: 'done',
      },
    ];
    const d = compareRuns(
      recordedSession(run('ses_1', tasks)),
      recordedSession(run('ses_2', [{ ...tasks[0], id: 'y' }])),
    );
    expect(d.changed).toBe(0);
    expect(d.tasks).toHaveLength(1);
    expect(d.tasks[0].differs).toEqual([]);
    const changedCall = compareRuns(
      recordedSession(run('ses_1', tasks)),
      recordedSession(
        run('ses_2', [
          { ...tasks[0], turns: [{ text: '', calls: [delegate('writer', 'redraft')] }, { text: 'done' }] },
        ]),
      ),
    );
    expect(changedCall.tasks[0].differs).toEqual(['delegations']);
    expect(changedCall.tasks[0].turns[0].differs).toEqual(['calls']);
  });

  it("finds a fork's own task by its message id when earlier tasks of its conversation were replayed first", () => {
    const earlier = { id: 't1', text: 'Remember 7', turns: [{ text: 'Noted' }], answer: 'Noted' };
    const a = recordedSession(
      run('ses_a', [earlier, { id: 't2', text: 'Which?', turns: [{ text: '7' }], answer: '7' }]),
    );
    const b = recordedSession(
      run(
        'ses_b',
        [
          { ...earlier, id: 'e1' },
          { id: 'f', text: 'Which, doubled?', turns: [{ text: '14' }], answer: '14' },
        ],
        { session_id: 'ses_a', task_id: 't2', turn: 1, message_id: 'm-f' },
      ),
    );
    const d = compareRuns(a, b);
    expect(d.tasks.map((t) => [t.a?.taskId, t.b?.taskId])).toEqual([
      ['t2', 'f'],
      ['t1', 'e1'],
    ]);
    expect(d.tasks[1].differs).toEqual([]);
    expect(d.tasks[1].turns[0].b!.replayed).toBe(true);
    expect(d.tasks[0].turns[0].b!.replayed).toBe(false);
  });

  it('keeps a comparison of huge runs within its bounds and says it cut them', () => {
    const big = (id: string) =>
      recordedSession(
        run(
          id,
          Array.from({ length: 250 }, (_, t) => ({
            id: `${id}${t}`,
            text: `task ${t}`,
            turns: Array.from({ length: 20 }, (_, n) => ({ text: `${id} turn ${n} `.padEnd(3000, 'x') })),
            answer: 'a',
          })),
        ),
      );
    const d = compareRuns(big('ses_a'), big('ses_b'));
    expect(d.truncated).toBe(true);
    expect(d.tasks.length).toBeLessThanOrEqual(200);
    expect(d.tasks[0].turns[0].a!.text.length).toBeLessThanOrEqual(2000);
    expect(JSON.stringify(d).length).toBeLessThan(3_000_000);
  });
});
