'use strict';
// The reference: an @a2a-js/sdk 1.3.0 server (DefaultRequestHandler, InMemoryTaskStore, express
// jsonRpcHandler + agentCardHandler) whose executor answers at once.
const express = require('express');
const { TaskState } = require('@a2a-js/sdk');
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server');
const { agentCardHandler, jsonRpcHandler, UserBuilder } = require('@a2a-js/sdk/server/express');

const executor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const status = (state) => ({ state, message: undefined, timestamp: new Date().toISOString() });
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [],
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: 'response',
          name: 'response',
          description: '',
          parts: [
            { content: { $case: 'text', value: 'ok' }, metadata: undefined, filename: '', mediaType: 'text/plain' },
          ],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.finished();
  },
};

const app = express();
const server = app.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'sdk-bench',
    description: 'bench reference agent',
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
    provider: undefined,
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  process.stdout.write(`url ${url}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
