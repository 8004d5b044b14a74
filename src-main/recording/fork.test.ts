import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../launch';
import type { Session } from '../runtime';
import { staticFormation } from '../runtime/tools';
import { readTraceFile, rpc, scene, traceOf, userMessage, type Scene } from '../runtime/tools/formation.fixture';
import { startFakeProvider, type FakeProvider } from '../drivers/fakes';
import { launchFork } from '../workspace/fork-run';
import { prepareFork, recordedSession } from './index';
import { KEY, recordFormation, type RecordedFormation } from './recorded.fixture';

// Fork a task recorded on a real model's wire (a fake Anthropic endpoint): the turns before the
// fork point replay the recording exactly and never reach the model; from the fork point the
// model is asked, with the conversation so far and the edited message.

let rec: RecordedFormation | undefined;
let own: { s: Scene; fake: FakeProvider } | undefined;
const extra: Session[] = [];
afterEach(async () => {
  await Promise.all(extra.splice(0).map((x) => x.end('test over').catch(() => undefined)));
  await rec?.dispose();
  rec = undefined;
  await own?.s.dispose();
  await own?.fake.dispose();
  own = undefined;
});

type Line = Record<string, any>;
const turnsOf = (lines: Line[]) =>
  lines
    .filter((l) => l.event_type === 'inference')
    .map((l) => ({
      turn: l.turn,
      text: l.text,
      calls: (l.tool_calls ?? []).map((c: Line) => [c.name, c.arguments]),
      tokens: [l.tokens_in, l.tokens_out],
    }));

async function fork(r: RecordedFormation, turn: number, driver: 'real' | 'rehearsal', message?: string) {
  const session = recordedSession(readTraceFile(r.orch.trace.path));
  const prepared = prepareFork(session, {
    taskId: session.tasks[0].taskId,
    turn,
    driver,
    env: r.s.env,
    ...(message !== undefined ? { message } : {}),
  });
  const launched = await launchFork(prepared, {
    startSession,
    env: r.s.env,
    formation: staticFormation({ 'worker-b': { kind: 'manifest', manifestPath: r.paths.b } }),
  });
  extra.push(launched.session);
  const task = await launched.settled;
  return { prepared, task, lines: traceOf(launched.session), recorded: session };
}

describe('fork from a recorded turn', () => {
  it('replays the turns before the fork point, then the real driver gets the history with the edited message', async () => {
    rec = await recordFormation();
    const before = rec.anthropic.requests.length;
    // The fork's delegation to worker-a (addressed by URL) asks worker-a's model again.
    rec.chat.reply({ turn: { text: 'worker-a: revenue grew 12% (again)', tokensIn: 44, tokensOut: 11 } });
    rec.anthropic.reply({ turn: { text: 'Forked summary: revenue grew 12%.', tokensIn: 280, tokensOut: 9 } });
    const edited = 'Summarise the report in one line.';
    const { task, lines } = await fork(rec, 2, 'real', edited);

    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const start = lines.find((l) => l.event_type === 'session_start')!;
    expect(start.forked_from).toMatchObject({ session_id: rec.orch.id, turn: 2, driver: 'real', edited: true });
    expect(lines.find((l) => l.event_type === 'a2a_task_received')!.text).toBe(edited);

    // Turn 1 is the recording's, exactly: same text, calls, tokens. Turn 2 is the model's.
    const recorded = turnsOf(traceOf(rec.orch));
    const forked = turnsOf(lines);
    expect(forked[0]).toEqual(recorded[0]);
    expect(forked[1]).toMatchObject({ turn: 2, text: 'Forked summary: revenue grew 12%.', tokens: [280, 9] });

    // The model was asked once (turn 2 only), and saw the edited message and the replayed turn.
    expect(rec.anthropic.requests.length).toBe(before + 1);
    const body = rec.anthropic.requests[before].body;
    expect(body.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: edited }] });
    const replayed = body.messages[1].content.filter((c: Line) => c.type === 'tool_use').map((c: Line) => c.input);
    expect(replayed).toEqual([
      { to: rec.a.url, text: 'Summarise the report.' },
      { to: 'worker-b', text: 'List the open questions.' },
    ]);
    const results = body.messages[2].content
      .filter((c: Line) => c.type === 'tool_result')
      .map((c: Line) => JSON.stringify(c.content));
    expect(results.join(' ')).toContain('revenue grew 12% (again)');
    expect(results.join(' ')).toContain('worker-b: two open questions');
    // The key the recorded model echoed stays masked in the fork's trace.
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });

  it('at turn 1 sends the whole task to the real driver; the rehearsal replays the recording with no model', async () => {
    rec = await recordFormation();
    const before = rec.anthropic.requests.length;
    rec.anthropic.reply({ turn: { text: 'A direct answer.', tokensIn: 50, tokensOut: 4 } });
    const first = await fork(rec, 1, 'real', 'Just say hello.');
    expect(turnsOf(first.lines).map((t) => t.text)).toEqual(['A direct answer.']);
    expect(rec.anthropic.requests[before].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Just say hello.' }] },
    ]);

    rec.chat.reply({ turn: { text: 'worker-a: the report says revenue grew 12%', tokensIn: 44, tokensOut: 11 } });
    const replay = await fork(rec, 1, 'rehearsal');
    expect(rec.anthropic.requests.length).toBe(before + 1);
    expect(replay.lines.find((l) => l.event_type === 'session_start')!.forked_from).toMatchObject({
      driver: 'rehearsal',
      edited: false,
    });
    expect(turnsOf(replay.lines).map(({ text, calls, tokens }) => ({ text, calls: calls.length, tokens }))).toEqual(
      turnsOf(traceOf(rec.orch)).map(({ text, calls, tokens }) => ({ text, calls: calls.length, tokens })),
    );
  });

  it('refuses a turn the task never reached and an unknown task', async () => {
    rec = await recordFormation();
    const session = recordedSession(readTraceFile(rec.orch.trace.path));
    expect(() =>
      prepareFork(session, { taskId: session.tasks[0].taskId, turn: 3, driver: 'real', env: rec!.s.env }),
    ).toThrow(/turn 1 to 2/);
    expect(() => prepareFork(session, { taskId: 'tsk_nope', turn: 1, driver: 'real', env: rec!.s.env })).toThrow(
      /no task/,
    );
  });

  it('replays the earlier tasks of the conversation first, so the model sees the same history', async () => {
    const s = scene();
    s.env.ANTHROPIC_KEY = KEY;
    const fake = await startFakeProvider('anthropic', { key: KEY });
    own = { s, fake };
    const path = s.manifest('memo', {
      artifacts: [
        {
          name: 'murmur/driver-anthropic',
          runtime: 'driver',
          gateway: { endpoint: fake.url, api_key: '${ANTHROPIC_KEY}' },
        },
      ],
      inference: { transport: 'http', model: 'claude-sonnet-4-6', driver: { artifact: 'murmur/driver-anthropic' } },
    });
    const recorded = await startSession({ manifestPath: path, env: s.env, port: 0 });
    s.sessions.push(recorded);
    fake.reply(
      { turn: { text: 'Noted: 7.', tokensIn: 12, tokensOut: 3 } },
      { turn: { text: 'It was 7.', tokensIn: 30, tokensOut: 4 } },
    );
    const first = await rpc(recorded.url, 'SendMessage', {
      message: userMessage('Remember the number 7.'),
      configuration: { returnImmediately: false },
    });
    const contextId = first.task.contextId;
    await rpc(recorded.url, 'SendMessage', {
      message: { ...userMessage('Which number?'), contextId },
      configuration: { returnImmediately: false },
    });
    const session = recordedSession(traceOf(recorded));
    expect(session.tasks.map((t) => t.contextId)).toEqual([contextId, contextId]);

    fake.reply({ turn: { text: 'Doubled: 14.', tokensIn: 40, tokensOut: 4 } });
    const before = fake.requests.length;
    const prepared = prepareFork(session, {
      taskId: session.tasks[1].taskId,
      turn: 1,
      driver: 'real',
      env: s.env,
      message: 'Which number, doubled?',
    });
    const launched = await launchFork(prepared, { startSession, env: s.env });
    extra.push(launched.session);
    const done = await launched.settled;
    expect(done.artifacts?.[0]?.parts[0]?.text).toBe('Doubled: 14.');
    // One request only: the earlier task was replayed; the model saw it as history.
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests[before].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Remember the number 7.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Noted: 7.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Which number, doubled?' }] },
    ]);
    const start = traceOf(launched.session).find((l) => l.event_type === 'session_start')!;
    expect(start.forked_from).toMatchObject({
      task_id: session.tasks[1].taskId,
      replayed_tasks: 1,
      message_id: prepared.message.messageId,
    });
  });
});
