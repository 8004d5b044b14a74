import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatIssues, loadManifestFile } from '../manifest';
import { startTestSession, type TestSession } from '../runtime/testing';

// The manifest the README's Conformance section runs the A2A TCK against. These calls are shaped as
// the TCK sends them (JSON-RPC, messageId `tck-<scenario>-<run>`), so a change to the fixture or to
// the rehearsal driver that would break a TCK scenario shows up here, without the TCK installed.

const FIXTURE = join(__dirname, 'fixtures', 'tck-door.yaml');

let ts: TestSession;
beforeAll(async () => {
  ts = await startTestSession(parse(readFileSync(FIXTURE, 'utf8')));
});
afterAll(() => ts.dispose());

const send = async (scenario: string, text: string, taskId?: string) => {
  const message = {
    role: 'ROLE_USER',
    parts: [{ text }],
    messageId: `tck-${scenario}-run1`,
    ...(taskId ? { taskId } : {}),
  };
  const reply = await ts.rpc('SendMessage', { message });
  expect(reply.error, JSON.stringify(reply.error)).toBeUndefined();
  return reply.result;
};

describe('the TCK door fixture', () => {
  it('is a valid manifest', () => {
    const r = loadManifestFile(FIXTURE, {});
    if (!r.ok) throw new Error(formatIssues(r.issues));
    expect(r.manifest.name).toBe('tck-door');
  });

  it('answers tck-artifact-file-url with a file URL part, not the longer-matching file bytes reply', async () => {
    const { task } = await send('artifact-file-url', 'TCK artifact test');
    expect(task.artifacts[0].parts[0]).toEqual({
      url: 'https://example.com/output.txt',
      mediaType: 'text/plain',
      filename: 'output.txt',
    });
    const bytes = await send('artifact-file', 'TCK artifact test');
    expect(bytes.task.artifacts[0].parts[0]).toMatchObject({
      raw: 'dGNr',
      mediaType: 'text/plain',
      filename: 'output.txt',
    });
  });

  it('answers the text and data scenarios with the artifact the TCK expects first', async () => {
    expect((await send('artifact-text', 'TCK artifact test')).task.artifacts[0].parts[0].text).toBe(
      'Generated text content',
    );
    expect((await send('artifact-data', 'TCK artifact test')).task.artifacts[0].parts[0].data).toEqual({
      key: 'value',
      count: 42,
    });
  });

  it('answers tck-message-response with a Message', async () => {
    const result = await send('message-response', 'TCK artifact test');
    expect(result.task).toBeUndefined();
    expect(result.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'Direct message response' }] });
  });

  it('holds tck-input-required waiting for input until a follow-up on the same task completes it', async () => {
    const { task } = await send('input-required', 'TCK prerequisite task creation');
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await send('complete-task', 'TCK follow-up for history', task.id);
    expect(done.task).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(done.task.history.length).toBeGreaterThan(1);
  });
});
