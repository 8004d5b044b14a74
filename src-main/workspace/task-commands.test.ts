import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import { CoreError, MAX_FILE_BYTES } from '../../src-shared/contract';
import { createTestStudio, type TestStudio } from './test-studio';

// The Studio's task commands against real sessions, through their doors: a conversation keeps its
// context, a reply continues a task waiting for input, data parts meet the capsule's contract, and
// every bound of task.send is refused with a sentence naming the part.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

/** The writer asks which colour when told to paint, and knows its input contract when given one. */
function scriptWriter(workspace: string, extra = '', edit = (t: string) => t): void {
  const file = join(workspace, 'capsules', 'writer.yaml');
  const text = readFileSync(file, 'utf8').replace(
    / {4}replies:[\s\S]*?(?=\n\nlifecycle:)/,
    [
      '    replies:',
      '      - when: paint',
      '        turns:',
      '          - tool_calls:',
      '              - name: request_input',
      '                arguments: { question: "Which colour?" }',
      '          - text: "Painted it {{tool_results}}"',
    ].join('\n'),
  );
  writeFileSync(file, edit(`${text.replace('delay_ms: 300', 'delay_ms: 0')}\n${extra}`));
}

async function started(extra = '', edit?: (t: string) => string): Promise<TestStudio> {
  const s = await createTestStudio();
  scriptWriter(s.workspace, extra, edit);
  await s.core.invoke('workspace.open', { dir: s.workspace });
  await s.core.invoke('capsule.launch', { id: 'writer' });
  return s;
}

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CoreError);
  return err as CoreError;
};

const texts = (task: Task) =>
  (task.history ?? []).map((m) =>
    m.parts.map((p) => p.text ?? (p.data !== undefined ? JSON.stringify(p.data) : (p.filename ?? ''))).join(''),
  );

describe('task.send through the door', () => {
  it('a reply continues the task waiting for input (same task and context), and task.updated brings its end and answer', async () => {
    studio = await started();
    const asked = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'paint the fence' });
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(asked.status.message?.parts[0].text).toBe('Which colour?');

    const final = studio.next(
      'task.updated',
      (u) => u.task.id === asked.id && u.task.status.state === 'TASK_STATE_COMPLETED',
    );
    const done = await studio.core.invoke('task.send', {
      capsuleId: 'writer',
      taskId: asked.id,
      contextId: asked.contextId,
      text: 'green',
    });
    expect(done.id).toBe(asked.id);
    expect(done.contextId).toBe(asked.contextId);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(texts(done)).toEqual(['paint the fence', 'Which colour?', 'green']);
    // The push alone carries the final state and the answer: the console polls no more.
    const pushed = (await final).task;
    expect(pushed.artifacts?.flatMap((a) => a.parts.map((p) => p.text))).toContain('Painted it - request_input: green');

    // Both messages went through the door, as an outside caller's would.
    const sessionId = (await studio.core.invoke('formation.get', {})).capsules.find(
      (c) => c.id === 'writer',
    )!.sessionId!;
    const trace = await studio.core.invoke('trace.tail', { sessionId });
    expect(
      trace.events.filter((e) => e.event_type === 'a2a_task_received').map((e) => (e as { method?: string }).method),
    ).toEqual(['SendMessage', 'SendMessage']);
  });

  it('a follow-up with the contextId joins the conversation; a wrong context for the task is refused at its field', async () => {
    studio = await started();
    const first = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'hello' });
    const second = await studio.core.invoke('task.send', {
      capsuleId: 'writer',
      text: 'and again',
      contextId: first.contextId,
    });
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    const asked = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'paint it' });
    const err = await refusal(
      studio.core.invoke('task.send', {
        capsuleId: 'writer',
        taskId: asked.id,
        contextId: first.contextId,
        text: 'blue',
      }),
    );
    expect(err.code).toBe('invalid_input');
    expect(err.details).toMatchObject({ rpcCode: -32602 });
  });

  it('sends a file and a data part as the door takes them', async () => {
    studio = await started();
    const bytes = Buffer.from('col1,col2\n1,2\n').toString('base64');
    const task = await studio.core.invoke('task.send', {
      capsuleId: 'writer',
      text: 'see attached',
      data: { rows: 1 },
      files: [{ name: 'a.csv', mediaType: 'text/csv', bytes }],
    });
    const got = await studio.core.invoke('task.get', { capsuleId: 'writer', taskId: task.id });
    expect(got.history?.[0].parts).toEqual([
      { text: 'see attached' },
      { raw: bytes, filename: 'a.csv', mediaType: 'text/csv' },
      { data: { rows: 1 }, mediaType: 'application/json' },
    ]);
  });

  it('checks data against the capsule’s accepts schema: every problem at its field, refused before sending, accepted once it fits', async () => {
    const accepts = [
      'accepts:',
      '  type: object',
      '  properties:',
      '    priority: { type: integer, minimum: 1 }',
      '    title: { type: string }',
      '  required: [priority, title]',
      '',
    ].join('\n');
    studio = await started(accepts);
    const check = await studio.core.invoke('task.checkData', { capsuleId: 'writer', data: { priority: 'high' } });
    expect(check.contract).toBe(true);
    expect(check.problems).toEqual(
      expect.arrayContaining([
        { field: 'priority', message: 'must be integer' },
        { field: 'title', message: "must have required property 'title'" },
      ]),
    );

    const err = await refusal(
      studio.core.invoke('task.send', { capsuleId: 'writer', text: 'go', data: { priority: 0, title: 'x' } }),
    );
    expect(err.code).toBe('invalid_input');
    expect(err.message).toBe('data.priority: must be >= 1');
    const none = await refusal(studio.core.invoke('task.send', { capsuleId: 'writer', text: 'go' }));
    expect(none.message).toMatch(/takes a data part/);
    const sessionId = (await studio.core.invoke('formation.get', {})).capsules.find(
      (c) => c.id === 'writer',
    )!.sessionId!;
    expect(
      (await studio.core.invoke('trace.tail', { sessionId })).events.some((e) => e.event_type === 'a2a_task_received'),
    ).toBe(false);

    expect(
      (await studio.core.invoke('task.checkData', { capsuleId: 'writer', data: { priority: 2, title: 'x' } })).problems,
    ).toEqual([]);
    const ok = await studio.core.invoke('task.send', {
      capsuleId: 'writer',
      text: 'go',
      data: { priority: 2, title: 'x' },
    });
    expect(ok.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('refuses at the boundary what the door would refuse, naming the part and the bound', async () => {
    studio = await started();
    const send = (input: Record<string, unknown>) =>
      refusal(studio!.core.invoke('task.send', { capsuleId: 'writer', ...input } as never));
    expect((await send({})).message).toMatch(/text: a message needs text, a data part or a file/);
    expect((await send({ text: '   ' })).message).toMatch(/a message needs text/);
    expect((await send({ files: [{ name: 'x.bin', bytes: 'not base64!' }] })).message).toMatch(
      /files\.0\.bytes: not base64/,
    );
    expect((await send({ files: [{ name: 'x.bin', bytes: 'AAAA', mediaType: 'nonsense' }] })).message).toMatch(
      /mediaType: a media type/,
    );
    const big = Buffer.alloc(400 * 1024).toString('base64');
    expect(
      (
        await send({
          files: [
            { name: 'a', bytes: big },
            { name: 'b', bytes: big },
          ],
        })
      ).message,
    ).toMatch(/files: the files add up to 800 KiB; at most 700 KiB/);
    expect(
      (await send({ files: [{ name: 'a', bytes: Buffer.alloc(MAX_FILE_BYTES + 3).toString('base64') }] })).code,
    ).toBe('invalid_input');
    expect((await send({ text: 'x', data: { blob: 'y'.repeat(300 * 1024) } })).message).toMatch(
      /data: the data part is 300 KiB of JSON; at most 256 KiB/,
    );
    expect(
      (
        await send({
          text: 'x'.repeat(190_000),
          data: { blob: 'y'.repeat(250 * 1024) },
          files: [{ name: 'a', bytes: Buffer.alloc(600 * 1024).toString('base64') }],
        })
      ).message,
    ).toMatch(/the message is \d+ KiB as sent; a door takes at most 1 MiB/);
    expect((await send({ text: 'x', taskId: 'tsk_nope' })).code).toBe('not_found');
    expect((await send({ text: 'x', extra: 1 })).message).toMatch(/Unrecognized key/);
  });

  it('task.list reads the door (ListTasks), so a capsule whose exports.methods leaves it out says so', async () => {
    studio = await started('', (t) =>
      t.replace('    accept: true\n', '    accept: true\n  methods: [SendMessage, GetTask, CancelTask]\n'),
    );
    await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'hello' });
    const err = await refusal(studio.core.invoke('task.list', { capsuleId: 'writer' }));
    expect(err.message).toMatch(/exports\.methods leaves it out/);
  });

  it('task.list pages through ListTasks, oldest first, with each task’s history and answer', async () => {
    studio = await started();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await studio.core.invoke('task.send', { capsuleId: 'writer', text: `hello ${i}` })).id);
    const list = await studio.core.invoke('task.list', { capsuleId: 'writer' });
    expect(list.map((t) => t.id)).toEqual(ids);
    expect(texts(list[2])[0]).toBe('hello 2');
    expect(list[2].artifacts?.length).toBeGreaterThan(0);
  });

  it('a blocking send answers the task as it is once its timeoutMs passes; timeoutMs 0 answers at once', async () => {
    // The writer takes 30 s per turn: a send that waited for the task's end would outlive this test.
    studio = await started('', (t) => t.replace('delay_ms: 0', 'delay_ms: 30000'));
    const { core } = studio;
    const bounded = await core.invoke('task.send', { capsuleId: 'writer', text: 'slowly', timeoutMs: 300 });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(bounded.status.state);
    const now = await core.invoke('task.send', { capsuleId: 'writer', text: 'now', timeoutMs: 0 });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(now.status.state);
    // Both run on: the bound ends the wait, not the task.
    const listed = await core.invoke('task.list', { capsuleId: 'writer' });
    expect(listed.map((t) => t.id)).toEqual(expect.arrayContaining([bounded.id, now.id]));
    expect(listed.every((t) => !['TASK_STATE_CANCELED', 'TASK_STATE_FAILED'].includes(t.status.state))).toBe(true);
  }, 20_000);
});
