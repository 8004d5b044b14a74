import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { main, watchLine } from './watch';

// `capsule watch` against a running session: prints its events readably and exits when it ends.

const script = {
  inference: {
    rehearsal: {
      replies: [
        {
          when: 'tools',
          turns: [
            {
              text: 'Let me look.',
              tool_calls: [{ name: 'lookup', arguments: { q: 'moon' } }],
              tokens_in: 11,
              tokens_out: 7,
            },
            { text: 'Found it.', tokens_in: 20, tokens_out: 3 },
          ],
        },
      ],
    },
  },
};

let ts: TestSession | undefined;
const savedHome = process.env.CAPSULE_HOME;
afterEach(async () => {
  process.env.CAPSULE_HOME = savedHome;
  await ts?.dispose();
  ts = undefined;
});

/** Runs the command until `ready` shows in its output, then lets the test act. */
function run(argv: string[]) {
  const lines: string[] = [];
  let notify = () => {};
  const done = main(argv, (l) => {
    lines.push(l);
    notify();
  });
  const seen = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => lines.some((l) => l.includes(text)) && resolve();
      notify = check;
      check();
    });
  return { lines, done, seen };
}

describe('capsule watch', () => {
  it('--url: turns with tokens, tool calls, results and completion, then exits when the session ends', async () => {
    ts = await startTestSession(script);
    const w = run(['--url', ts.session.url.replace('http://', ''), '--from', 'start']);
    await w.seen('session ses_');
    await ts.rpc('SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'tools please' }] } });
    await w.seen('task ok');
    await ts.session.end('test over');
    expect(await w.done).toBe(0);
    const text = w.lines.join('\n');
    expect(text).toMatch(/session ses_\w+ {2}test-worker v0\.1\.0/);
    expect(text).toContain('task received: “tools please”');
    expect(text).toMatch(/turn 1 {2}in 11 out 7 {2}tool_use .* calls lookup {2}“Let me look\.”/);
    expect(text).toContain('→ lookup {"q":"moon"}');
    expect(text).toMatch(/← lookup error: unknown tool lookup/);
    expect(text).toMatch(/turn 2 {2}in 20 out 3 {2}end_turn/);
    expect(text).toMatch(/task ok {2}TASK_STATE_COMPLETED {2}turns 2 {2}in 31 out 10/);
    expect(w.lines.at(-1)).toMatch(/^session ended \(test over\)/);
  });

  it('<session>: resolves @1 and ends with the session_end line of its trace', async () => {
    ts = await startTestSession(script);
    process.env.CAPSULE_HOME = ts.home;
    const w = run(['@1', '--from', 'start']);
    await w.seen('session ses_');
    await ts.rpc('SendMessage', { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'hello' }] } });
    await w.seen('task ok');
    await ts.session.end('stopped from test');
    expect(await w.done).toBe(0);
    expect(w.lines[1]).toContain('task received: “hello”');
    expect(w.lines.at(-1)).toMatch(/^session ended \(stopped from test\) {2}tasks 1 {2}in \d+ out \d+$/);
  });

  it('refuses a bad --from and a door that does not answer', async () => {
    await expect(main(['--url', 'localhost:1', '--from', 'yesterday'], () => {})).rejects.toThrow(/--from/);
    await expect(main(['--url', '127.0.0.1:1'], () => {})).rejects.toThrow(/does not answer/);
    await expect(main([], () => {})).rejects.toThrow(/one session or --url/);
  });

  it('names what a canceled task left behind', () => {
    const residue = [
      { kind: 'detached_shell', work_id: 'wrk_1', binary: 'sleep', command: 'sleep 30', started_at_ms: 1 },
    ];
    expect(
      watchLine({
        ts: '',
        session_id: 's',
        task_id: 'tsk_0123456789abcdef',
        event_type: 'task_canceled',
        by: 'client',
        residue,
      } as never),
    ).toBe('[89abcdef] task canceled by client  running: sleep 30');
  });

  it('formats events it does not know by their type', () => {
    expect(watchLine({ ts: '', event_type: 'a2a_send', session_id: 's', task_id: 'tsk_0123456789abcdef' })).toBe(
      '[89abcdef] a2a_send',
    );
  });
});
