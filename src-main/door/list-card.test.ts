import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_EXTENSION_URI } from '../../src-shared/a2a';
import { startTestSession, type TestSession } from '../runtime/testing';

// ListTasks paging and filters (docs/door.md, ListTasks), and the agent card.

let ts: TestSession;
const ids: string[] = [];
beforeAll(async () => {
  ts = await startTestSession({
    description: 'Answers questions about fences.',
    skills: [{ id: 'fences', name: 'Fences', description: 'fence facts', tags: ['fence'] }],
    artifacts: [{ name: 'murmur/driver-openai', gateway: { api_key: 'sk-should-never-show' } }],
  });
  for (let i = 0; i < 5; i++) {
    const r = await ts.rpc('SendMessage', {
      message: { messageId: `m${i}`, contextId: i < 3 ? 'a' : 'b', role: 'ROLE_USER', parts: [{ text: `t${i}` }] },
    });
    ids.push(r.result.task.id);
  }
});
afterAll(() => ts.dispose());

describe('ListTasks', () => {
  it('lists newest first without artifacts, with nextPageToken always present', async () => {
    const r = (await ts.rpc('ListTasks', {})).result;
    expect(r.tasks.map((t: any) => t.id)).toEqual([...ids].reverse());
    expect(r).toMatchObject({ nextPageToken: '', pageSize: 50, totalSize: 5 });
    expect(r.tasks.every((t: any) => !('artifacts' in t))).toBe(true);
  });

  it('pages with an opaque token', async () => {
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const r = (await ts.rpc('ListTasks', { pageSize: 2, pageToken: token || undefined })).result;
      seen.push(...r.tasks.map((t: any) => t.id));
      token = r.nextPageToken;
      expect(r.totalSize).toBe(5);
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by context, status and timestamp; includes artifacts and trims history on request', async () => {
    const a = (await ts.rpc('ListTasks', { context_id: 'a', include_artifacts: true, history_length: 0 })).result;
    expect(a.tasks).toHaveLength(3);
    expect(a.tasks[0].artifacts[0].artifactId).toBe('response');
    expect('history' in a.tasks[0]).toBe(false);
    expect((await ts.rpc('ListTasks', { status: 'TASK_STATE_FAILED' })).result.tasks).toEqual([]);
    expect((await ts.rpc('ListTasks', { status: 3 })).result.totalSize).toBe(5);
    expect((await ts.rpc('ListTasks', { statusTimestampAfter: '2999-01-01T00:00:00Z' })).result.totalSize).toBe(0);
  });

  it('rejects invalid values with -32602', async () => {
    for (const params of [
      { pageSize: 150 },
      { pageSize: 0 },
      { historyLength: -1 },
      { status: 'TASK_STATE_BOGUS' },
      { pageToken: 'garbage' },
      { statusTimestampAfter: 'yesterday' },
    ]) {
      const r = await ts.rpc('ListTasks', params);
      expect(r.error?.code, JSON.stringify(params)).toBe(-32602);
    }
  });
});

describe('agent card', () => {
  it('is served at the well-known path, built from the manifest, with no secret', async () => {
    const res = await fetch(`${ts.session.url}/.well-known/agent-card.json`);
    const text = await res.text();
    expect(text).not.toContain('sk-should-never-show');
    const card = JSON.parse(text);
    expect(card).toMatchObject({
      name: 'test-worker',
      description: 'Answers questions about fences.',
      version: '0.1.0',
      supportedInterfaces: [{ url: ts.session.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: {
        extendedAgentCard: true,
        extensions: expect.arrayContaining([
          expect.objectContaining({
            uri: DOOR_EXTENSION_URI,
            params: { methods: ['murmur.StopSession', 'murmur.EndSession', 'murmur.WatchSession'] },
          }),
        ]),
      },
      defaultInputModes: expect.arrayContaining(['text/plain']),
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'fences', name: 'Fences', description: 'fence facts', tags: ['fence'] }],
    });
    const ext = await ts.rpc('GetExtendedAgentCard');
    expect(ext.result).toEqual(card);
  });
});
