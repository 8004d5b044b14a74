import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../launch';
import type { Session } from '../runtime/api';
import { startReceiver, type Receiver } from './push/receiver.fixture';
import { configurePush, existingPushOf } from './push/registry';

// A ${VAR} value the model echoes never leaves the runtime in clear: not in blocking answers,
// GetTask, ListTasks, SSE streams or push bodies, whether the task is new or old.

const SECRET = 'sk-live-7f3a9c2e5b1d';
const MANIFEST = `name: secret-echo
version: "0.1.0"
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    replies:
      - when: fail
        turns:
          - error: "upstream refused key \${ECHO_KEY}"
      - when: ask
        turns:
          - tool_calls:
              - name: request_input
                arguments: { question: "Is \${ECHO_KEY} yours?" }
      - turns:
          - text: "The key is \${ECHO_KEY}, keep it safe."
`;

let home: string;
let session: Session;
let receiver: Receiver;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'capsule-secrets-'));
  writeFileSync(join(home, 'murmur.yaml'), MANIFEST);
  session = await startSession({
    manifestPath: join(home, 'murmur.yaml'),
    env: { CAPSULE_HOME: home, ECHO_KEY: SECRET },
    port: 0,
  });
  configurePush(session, { timeoutMs: 2_000, backoffMs: [50] });
  receiver = await startReceiver();
});
afterAll(async () => {
  existingPushOf(session)?.dispose();
  await session.end('test over');
  await receiver.close();
  rmSync(home, { recursive: true, force: true });
});

let n = 0;
/** A raw JSON-RPC call: the answer's text, as a caller reads it. */
async function call(method: string, params: unknown): Promise<string> {
  const res = await fetch(session.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }),
  });
  return res.text();
}
const message = (text: string, extra: object = {}) => ({
  messageId: `s-${++n}`,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

describe('secrets in what the runtime hands out', () => {
  it('are masked in blocking answers, GetTask, ListTasks, SSE and push bodies', async () => {
    const sent = await call('SendMessage', {
      message: message(`please echo ${SECRET}`),
      configuration: { historyLength: 10, taskPushNotificationConfig: { url: receiver.url('/hook') } },
    });
    expect(sent).toContain('The key is ***, keep it safe.');
    expect(sent).not.toContain(SECRET);
    const task = JSON.parse(sent).result.task;
    expect(task.history[0].parts[0].text).toBe('please echo ***');

    const failed = JSON.parse(await call('SendMessage', { message: message('fail now') })).result.task;
    expect(failed.status.message.parts[0].text).toBe('task failed: upstream refused key ***');
    const asked = await call('SendMessage', { message: message('ask me') });
    expect(asked).toContain('Is *** yours?');
    const askedId = JSON.parse(asked).result.task.id;
    // The question holds the queue's slot until it is answered.
    const answered = await call('SendMessage', {
      message: message('no', { taskId: askedId }),
      configuration: { historyLength: 10 },
    });

    const stream = await (
      await fetch(session.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', accept: 'text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++n,
          method: 'SendStreamingMessage',
          params: { message: message('stream it') },
        }),
      })
    ).text();
    expect(stream).toContain('The key is ***');

    const answers = [
      sent,
      asked,
      stream,
      await call('GetTask', { id: task.id, historyLength: 10 }),
      await call('GetTask', { id: failed.id }),
      await call('GetTask', { id: askedId, historyLength: 10 }),
      await call('ListTasks', { includeArtifacts: true, historyLength: 10 }),
      answered,
    ];
    for (const a of answers) expect(a).not.toContain(SECRET);
    const pushed = await receiver.waitFor('/hook', 4);
    expect(pushed.some((p) => JSON.stringify(p.body).includes('The key is ***'))).toBe(true);
    for (const p of pushed) expect(JSON.stringify(p.body)).not.toContain(SECRET);
    // What the session itself hands the Studio: tasks, lists and task events.
    expect(JSON.stringify(session.listTasks())).not.toContain(SECRET);
    expect(JSON.stringify(session.peekTask(task.id))).toContain('***');
  });

  it('stay masked for old tasks read back from the records', async () => {
    const first = JSON.parse(await call('SendMessage', { message: message(`echo ${SECRET} again`) })).result.task;
    // Push it out of the tasks kept whole in memory.
    for (let i = 0; i < 260; i++) await session.acceptMessage({ message: message(`filler ${i}`) as never }).settled;
    const old = await call('GetTask', { id: first.id, historyLength: 10 });
    expect(old).toContain('The key is ***');
    expect(old).toContain(`echo *** again`);
    expect(old).not.toContain(SECRET);
    const listed = await call('ListTasks', { includeArtifacts: true, historyLength: 10, pageSize: 100 });
    expect(listed).not.toContain(SECRET);
  });
});
