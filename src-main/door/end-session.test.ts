import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PEER_HEADER } from '../../src-shared/a2a';
import { startTestSession, waitFor, type TestSession } from '../runtime/testing';
import { door, DoorError } from './client';

// murmur.EndSession through the one door client: it answers what StopSession answers, then the
// session ends by itself (session_end, door closed, running record gone). Other capsules may not.

let ts: TestSession | undefined;
afterEach(async () => {
  await ts?.dispose();
  ts = undefined;
});

const hang = { inference: { rehearsal: { replies: [{ when: 'hang', turns: [{ hang: true }] }] } } };
const message = (text: string) => ({ messageId: `msg-${text}`, role: 'ROLE_USER' as const, parts: [{ text }] });

describe('murmur.EndSession', () => {
  it('cancels, answers, then ends the session: session_end, door closed, running record removed', async () => {
    ts = await startTestSession(hang);
    const s = ts.session;
    const sent = await door.sendMessage(s.url, {
      message: message('hang on'),
      configuration: { returnImmediately: true },
    });
    await waitFor(s, () => s.taskState(sent.task!.id) === 'TASK_STATE_WORKING');
    const record = join(ts.home, 'run', `${s.id}.json`);
    expect(existsSync(record)).toBe(true);

    const answer = await door.endSession(s.url);
    expect(answer).toEqual({ session_id: s.id, canceled: [sent.task!.id], residue: [] });
    expect(await s.ended).toBe('stopped');
    expect(readFileSync(s.trace.path, 'utf8')).toContain('"event_type":"session_end"');
    expect(existsSync(record)).toBe(false);
    const refused = await door.getTask(s.url, sent.task!.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DoorError);
    expect((refused as DoorError).kind).toBe('unreachable');
  });

  it('is refused to other capsules, and the session goes on', async () => {
    ts = await startTestSession({ exports: { peer_tasks: { accept: true } } });
    const answer = await ts.rpc('murmur.EndSession', {}, { headers: { [PEER_HEADER]: 'orchestrator; session=ses_1' } });
    expect(answer.error.code).toBe(-32004);
    expect(ts.session.status().state).toBe('idle');
    expect((await door.sendMessage(ts.session.url, { message: message('still here') })).task?.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });
});

describe('the door client', () => {
  it('turns JSON-RPC errors into DoorError with the code and the ErrorInfo metadata', async () => {
    ts = await startTestSession();
    const sent = await door.sendMessage(ts.session.url, { message: message('done soon') });
    const err = (await door.cancelTask(ts.session.url, sent.task!.id).catch((e: unknown) => e)) as DoorError;
    expect(err).toMatchObject({ kind: 'rpc', code: -32002 });
    expect(err.metadata.state).toBe('TASK_STATE_COMPLETED');
    const unknown = (await door.getTask(ts.session.url, 'tsk_nope').catch((e: unknown) => e)) as DoorError;
    expect(unknown).toMatchObject({ kind: 'rpc', code: -32001 });
  });

  it('says when something answers that is not a door', async () => {
    const err = (await door.getTask('http://127.0.0.1:1', 'x').catch((e: unknown) => e)) as DoorError;
    expect(err).toMatchObject({ kind: 'unreachable' });
    ts = await startTestSession();
    const card = (await door
      .getTask(`${ts.session.url}/.well-known/agent-card.json`, 'x')
      .catch((e: unknown) => e)) as DoorError;
    expect(card.kind).toBe('bad_answer');
  });

  it('refuses an answer past its bound, even one that never says its length', async () => {
    const big = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 20 && res.write(chunk)) sent++;
        if (sent < 20) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(big.address() as { port: number }).port}`;
      const err = (await door.getTask(url, 'x').catch((e: unknown) => e)) as DoorError;
      expect(err).toMatchObject({ kind: 'bad_answer', message: expect.stringContaining('more than 16777216 bytes') });
    } finally {
      big.closeAllConnections();
      big.close();
    }
  });
});
