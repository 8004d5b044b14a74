'use strict';
// The durable floor: the bare floor plus the least any door that records its tasks must do. Per
// SendMessage: a fresh task id, and four JSON lines of about the door's size (~1.5 KB: the message
// received, the task's start, one inference turn, the task's end with the final task) serialized
// and appended to a trace file, the writes of one event-loop turn coalesced into one append.
// What our door costs above this is its own bookkeeping (docs/performance.md).
const { randomBytes } = require('node:crypto');
const { closeSync, mkdtempSync, openSync, rmSync, writeSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const fastify = require('fastify');

const dir = mkdtempSync(join(tmpdir(), 'capsule-durable-floor-'));
const fd = openSync(join(dir, 'trace.jsonl'), 'a');
const sessionId = `ses_${randomBytes(16).toString('hex')}`;

let pending = [];
const flush = () => {
  const text = pending.join('');
  pending = [];
  writeSync(fd, text);
};
const append = (event) => {
  if (pending.length === 0) setImmediate(flush);
  pending.push(`${JSON.stringify(event)}\n`);
};

const app = fastify({ logger: false });
app.post('/', async (req) => {
  const body = req.body || {};
  const message = (body.params && body.params.message) || {};
  const text =
    Array.isArray(message.parts) && message.parts[0] && typeof message.parts[0].text === 'string'
      ? message.parts[0].text
      : '';
  const id = `tsk_${randomBytes(16).toString('hex')}`;
  const contextId = message.contextId || `ctx_${randomBytes(8).toString('hex')}`;
  const base = () => ({ ts: new Date().toISOString(), session_id: sessionId, task_id: id });
  append({
    ...base(),
    event_type: 'a2a_task_received',
    context_id: contextId,
    message_id: message.messageId || '',
    method: 'SendMessage',
    text,
  });
  append({ ...base(), event_type: 'task_start', context_id: contextId });
  append({
    ...base(),
    event_type: 'inference',
    turn: 1,
    tokens_in: 12,
    tokens_out: 3,
    stop_reason: 'end_turn',
    text: 'ok',
    duration_ms: 0,
  });
  const task = {
    id,
    contextId,
    status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
    artifacts: [{ artifactId: 'response', name: 'response', parts: [{ text: 'ok', mediaType: 'text/plain' }] }],
    history: [message],
  };
  append({
    ...base(),
    event_type: 'task_end',
    exit_status: 'ok',
    state: 'TASK_STATE_COMPLETED',
    turns: 1,
    tokens_in: 12,
    tokens_out: 3,
    duration_ms: 0,
    answer: 'ok',
    final: task,
  });
  return { jsonrpc: '2.0', id: body.id !== undefined ? body.id : null, result: { task } };
});
app.listen({ host: '127.0.0.1', port: 0 }).then(() => {
  process.stdout.write(`url http://127.0.0.1:${app.server.address().port}/\n`);
});
process.on('SIGTERM', () =>
  app.close().then(() => {
    if (pending.length) flush();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
