import { afterEach, describe, expect, it } from 'vitest';
import { startTestSession, type TestSession } from './testing';
import { traceLines } from './trace-lines';

// The output contract (manifest `responds`) on the rehearsal driver: the script gives the data
// (the `assuming` answer), an unscripted turn answers a sample of the shape, an answer that does
// not fit is retried within max_turns and then fails naming the field; the card says JSON; and an
// orchestrator's delegate_task gets the worker's structured answer.

const RESEARCH = {
  type: 'object',
  properties: {
    findings: { type: 'array', items: { type: 'string' } },
    summary: { type: 'string' },
    sources: { type: 'array', items: { type: 'string' } },
  },
  required: ['findings', 'summary', 'sources'],
};
const ASSUMING = {
  findings: ['Finding 1', 'Finding 2'],
  summary: 'Brief research summary',
  sources: ['source1.com', 'source2.com'],
};

const sessions: TestSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose()));
});
async function start(extra: Record<string, unknown>) {
  const ts = await startTestSession(extra);
  sessions.push(ts);
  return ts;
}
const send = (ts: TestSession, text: string) =>
  ts.rpc('SendMessage', { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } });

describe('responds: the output contract', () => {
  it('answers with the scripted data as a data part, and its text rendering beside it', async () => {
    const ts = await start({
      responds: RESEARCH,
      inference: { rehearsal: { replies: [{ turns: [{ data: ASSUMING }] }] } },
    });
    const task = (await send(ts, 'research quantum computing')).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const [text, data] = task.artifacts[0].parts;
    expect(data).toEqual({ data: ASSUMING, mediaType: 'application/json' });
    expect(text.mediaType).toBe('text/plain');
    expect(text.text).toContain('summary: Brief research summary');
    expect(text.text).toContain('- Finding 1');
  });

  it('without a contract, scripted data still goes out as a data part, rendered as text when the turn has none', async () => {
    const ts = await start({ inference: { rehearsal: { replies: [{ turns: [{ data: { rows: 2 } }] }] } } });
    const task = (await send(ts, 'count')).result.task;
    expect(task.artifacts[0].parts).toEqual([
      { text: 'rows: 2', mediaType: 'text/plain' },
      { data: { rows: 2 }, mediaType: 'application/json' },
    ]);
  });

  it('answers a sample of the shape when nothing is scripted', async () => {
    const ts = await start({ responds: RESEARCH });
    const task = (await send(ts, 'hello')).result.task;
    expect(task.artifacts[0].parts[1].data).toEqual({ findings: [], summary: 'Acknowledged: “hello”', sources: [] });
  });

  it('shows a bad answer its problems and takes the corrected one', async () => {
    const ts = await start({
      responds: RESEARCH,
      inference: {
        max_turns: 3,
        rehearsal: {
          replies: [{ turns: [{ data: { summary: 7 } }, { text: '```json\n' + JSON.stringify(ASSUMING) + '\n```' }] }],
        },
      },
    });
    const task = (await send(ts, 'research')).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0].parts[1].data).toEqual(ASSUMING);
    const invalid = traceLines(ts.session).filter((l) => l.event_type === 'answer_invalid');
    expect(invalid).toHaveLength(1);
    expect(invalid[0].problems).toEqual(expect.arrayContaining(['summary: must be string', 'findings: is required']));
  });

  it('fails the task naming the field once max_turns is used up', async () => {
    const ts = await start({
      responds: RESEARCH,
      inference: {
        max_turns: 2,
        rehearsal: { replies: [{ turns: [{ text: 'not json at all' }, { data: { ...ASSUMING, findings: [1] } }] }] },
      },
    });
    const task = (await send(ts, 'research')).result.task;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    const failed = traceLines(ts.session).find((l) => l.event_type === 'task_failed');
    expect(failed).toMatchObject({ cause: 'invalid_response' });
    expect(String(failed?.message)).toContain('findings[0]: must be string');
    expect(task.status.message.parts[0].text).toContain('findings[0]');
  });

  it('refuses to start with a schema that is not JSON Schema', async () => {
    await expect(startTestSession({ responds: { type: 'no-such-type' } })).rejects.toThrow(
      /responds is not a valid JSON Schema/,
    );
  });

  it('advertises application/json output on the card', async () => {
    const ts = await start({ responds: RESEARCH, skills: [{ id: 'research', name: 'Research' }] });
    const card = (await (await fetch(`${ts.session.url}/.well-known/agent-card.json`)).json()) as any;
    expect(card.defaultOutputModes).toEqual(['application/json', 'text/plain']);
    expect(card.skills[0].outputModes).toEqual(['application/json', 'text/plain']);
    const plain = await start({});
    const plainCard = (await (await fetch(`${plain.session.url}/.well-known/agent-card.json`)).json()) as any;
    expect(plainCard.defaultOutputModes).toEqual(['text/plain']);
    expect(plainCard.skills[0].outputModes).toBeUndefined();
  });

  it("hands a worker's structured answer to the orchestrator through delegate_task", async () => {
    const worker = await start({
      name: 'researcher',
      responds: RESEARCH,
      exports: { peer_tasks: { accept: true } },
      inference: { rehearsal: { replies: [{ turns: [{ data: ASSUMING }] }] } },
    });
    const orch = await start({
      name: 'orch',
      capabilities: { network: { allow: [`127.0.0.1:${worker.session.port}`] } },
      inference: {
        rehearsal: {
          replies: [
            {
              turns: [
                { tool_calls: [{ name: 'delegate_task', arguments: { to: worker.session.url, text: 'research it' } }] },
                { text: 'done' },
              ],
            },
          ],
        },
      },
    });
    const done = (await send(orch, 'go')).result.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    // The worker's structured answer is also an artifact of the orchestrator's task.
    const passedOn = done.artifacts.find((a: { artifactId: string }) => a.artifactId.startsWith('delegation_'));
    expect(passedOn).toMatchObject({ parts: [{ data: ASSUMING, mediaType: 'application/json' }] });
    // Named after the worker (by its card, or its address until the card is read).
    expect(passedOn.name).toMatch(/ answer$/);
    const result = traceLines(orch.session).find((l) => l.event_type === 'tool_result' && l.name === 'delegate_task');
    expect(result).toMatchObject({ ok: true });
    const lastLine = String(result?.result).split('\n').at(-1) ?? '';
    expect(JSON.parse(lastLine)).toEqual(ASSUMING);
  });
});
