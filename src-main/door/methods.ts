import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonRpcId } from '../../src-shared/a2a';
import type { Session } from '../runtime/api';

// The door's JSON-RPC method registry. Each concern registers its methods with one line; a
// handler returns the result, or REPLIED when it wrote the reply itself (an SSE stream).

export interface MethodContext {
  session: Session;
  params: unknown;
  id: JsonRpcId;
  request: FastifyRequest;
  reply: FastifyReply;
  headers: IncomingHttpHeaders;
}

export type MethodHandler = (ctx: MethodContext) => unknown;

/** Returned by a handler that has written the reply itself. */
export const REPLIED: unique symbol = Symbol('door.replied');

const methods = new Map<string, MethodHandler>();

export function registerMethod(name: string, handler: MethodHandler): void {
  methods.set(name, handler);
}

export function findMethod(name: string): MethodHandler | undefined {
  return methods.get(name);
}

/** Capabilities the card declares; the streaming and push modules switch theirs on when they register. */
export const doorCapabilities = { streaming: false, pushNotifications: false };
