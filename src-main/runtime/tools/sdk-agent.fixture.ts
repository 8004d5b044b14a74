import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { TaskState, type AgentCard, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

// A remote A2A 1.0 agent nobody here wrote: @a2a-js/sdk's DefaultRequestHandler behind express.
// It echoes its task text as a `response` artifact, or, when the text says "hang", works until
// it is canceled. It records the headers of every request so tests can see what arrived.

export interface SdkAgent {
  url: string;
  /** Headers of every JSON-RPC request, in order. */
  requests: { method: string; headers: Record<string, string | string[] | undefined> }[];
  /** Task ids the executor was asked to cancel. */
  canceled: string[];
  close(): Promise<void>;
}

const textPart = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

export async function startSdkAgent(): Promise<SdkAgent> {
  const canceled: string[] = [];
  const hanging = new Map<string, () => void>();
  const status = (taskId: string, contextId: string, state: TaskState) =>
    AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: { state, message: undefined, timestamp: new Date().toISOString() },
      metadata: undefined,
    });

  const executor: AgentExecutor = {
    async execute(ctx, bus: ExecutionEventBus) {
      const { taskId, contextId } = ctx;
      const parts = ctx.request.message?.parts ?? [];
      const text = parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join(' ');
      const data = parts.find((p) => p.content?.$case === 'data')?.content?.value;
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
          artifacts: [],
          history: [],
          metadata: undefined,
        }),
      );
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING));
      if (text.includes('hang')) {
        await new Promise<void>((resolve) => hanging.set(taskId, resolve));
        return;
      }
      await new Promise((r) => setTimeout(r, 30));
      const answer = `sdk echo: ${text}${data ? ` ${JSON.stringify(data)}` : ''}`;
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: 'response',
            name: 'response',
            description: '',
            parts: [textPart(answer)],
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      canceled.push(taskId);
      hanging.get(taskId)?.();
      hanging.delete(taskId);
      bus.publish(status(taskId, '', TaskState.TASK_STATE_CANCELED));
      bus.finished();
    },
  };

  const app = express();
  const requests: SdkAgent['requests'] = [];
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'sdk-agent',
    description: 'An @a2a-js/sdk 1.3.0 agent',
    version: '9.9.9',
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
  app.use(express.json(), (req, _res, next) => {
    requests.push({ method: String(req.body?.method), headers: { ...req.headers } });
    next();
  });
  app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

  return {
    url,
    requests,
    canceled,
    close: () =>
      new Promise((resolve) => {
        for (const release of hanging.values()) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
