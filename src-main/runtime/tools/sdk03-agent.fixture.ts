import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { AgentCard, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
} from 'a2a-sdk-v03/server';
import { A2AExpressApp } from 'a2a-sdk-v03/server/express';

// A remote agent that speaks only A2A 0.3: @a2a-js/sdk 0.3.14's DefaultRequestHandler behind its
// A2AExpressApp. It echoes its task text as a `response` artifact, or, when the text says "hang",
// works until canceled. It records the method and headers of every JSON-RPC request.

export interface Sdk03Agent {
  url: string;
  requests: { method: string; headers: Record<string, string | string[] | undefined> }[];
  canceled: string[];
  close(): Promise<void>;
}

export async function startSdk03Agent(): Promise<Sdk03Agent> {
  const canceled: string[] = [];
  const hanging = new Map<string, () => void>();
  const status = (
    taskId: string,
    contextId: string,
    state: TaskStatusUpdateEvent['status']['state'],
    final: boolean,
  ): TaskStatusUpdateEvent => ({
    kind: 'status-update',
    taskId,
    contextId,
    status: { state, timestamp: new Date().toISOString() },
    final,
  });

  const executor: AgentExecutor = {
    async execute(ctx, bus: ExecutionEventBus) {
      const { taskId, contextId, userMessage } = ctx;
      const text = userMessage.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join(' ');
      const data = userMessage.parts.find((p) => p.kind === 'data');
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [userMessage],
      });
      bus.publish(status(taskId, contextId, 'working', false));
      if (text.includes('hang')) {
        await new Promise<void>((resolve) => hanging.set(taskId, resolve));
        return;
      }
      await new Promise((r) => setTimeout(r, 30));
      const answer = `sdk 0.3 echo: ${text}${data?.kind === 'data' ? ` ${JSON.stringify(data.data)}` : ''}`;
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId: 'response', name: 'response', parts: [{ kind: 'text', text: answer }] },
        lastChunk: true,
      });
      bus.publish(status(taskId, contextId, 'completed', true));
      bus.finished();
    },
    async cancelTask(taskId, bus) {
      canceled.push(taskId);
      hanging.get(taskId)?.();
      hanging.delete(taskId);
      bus.publish(status(taskId, '', 'canceled', true));
      bus.finished();
    },
  };

  const app = express();
  const requests: Sdk03Agent['requests'] = [];
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    protocolVersion: '0.3.0',
    name: 'sdk03-agent',
    description: 'An @a2a-js/sdk 0.3.14 agent',
    version: '0.3.3',
    url,
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const record: express.RequestHandler = (req, _res, next) => {
    if (req.method === 'POST') requests.push({ method: String(req.body?.method), headers: { ...req.headers } });
    next();
  };
  new A2AExpressApp(handler).setupRoutes(app, '', [express.json(), record]);

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
