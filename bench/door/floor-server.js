'use strict';
// The floor: bare fastify answering every JSON-RPC request with a fixed, completed SendMessage
// result. What no A2A server can beat on this machine; our door's cost is measured against it.
const fastify = require('fastify');

const app = fastify({ logger: false });
const task = {
  id: 'tsk_floor',
  contextId: 'ctx_floor',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
  artifacts: [{ artifactId: 'response', name: 'response', parts: [{ text: 'ok', mediaType: 'text/plain' }] }],
};
app.post('/', async (req) => ({
  jsonrpc: '2.0',
  id: req.body && req.body.id !== undefined ? req.body.id : null,
  result: { task },
}));
app.listen({ host: '127.0.0.1', port: 0 }).then(() => {
  process.stdout.write(`url http://127.0.0.1:${app.server.address().port}/\n`);
});
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
