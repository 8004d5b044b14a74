import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unsupportedOperation, type JsonRpcId } from '../../src-shared/a2a';
import { servedMethods, servesMethod } from '../../src-shared/manifest';
import type { Session } from '../runtime/api';

// The door's JSON-RPC methods as a table: method name -> handler. buildDoor is handed the table
// it serves (doorMethods, methods/index.ts, unless told otherwise), so a door answers exactly the
// methods in its table and -32601 for every other. A handler returns the result, or REPLIED when
// it wrote the reply itself (an SSE stream).

export interface MethodContext {
  session: Session;
  /** The table of the door answering this call. */
  methods: MethodTable;
  params: unknown;
  id: JsonRpcId;
  /** The HTTP request and reply; absent when the Studio calls its own session in process (call.ts). */
  request?: FastifyRequest;
  reply?: FastifyReply;
  headers: IncomingHttpHeaders;
}

export type MethodHandler = (ctx: MethodContext) => unknown;

/** The HTTP exchange of a method that needs one (a stream, an answer that must leave first); refused in process. */
export function httpOf(ctx: MethodContext, method: string): { request: FastifyRequest; reply: FastifyReply } {
  if (!ctx.request || !ctx.reply)
    throw unsupportedOperation(
      `${method} is answered over HTTP only (a stream, or an answer that must leave before it acts)`,
    );
  return { request: ctx.request, reply: ctx.reply };
}

/** Returned by a handler that has written the reply itself. */
export const REPLIED: unique symbol = Symbol('door.replied');

/** The methods one door serves, by JSON-RPC method name. */
export type MethodTable = Readonly<Record<string, MethodHandler>>;

/** The part of a table whose names are listed (names the table lacks are left out). */
export function pickMethods(table: MethodTable, names: readonly string[]): MethodTable {
  return Object.fromEntries(names.filter((n) => Object.hasOwn(table, n)).map((n) => [n, table[n]]));
}

/**
 * Capabilities a card declares follow from the table: streaming, push and the extended card only
 * when one of their methods is served.
 */
export function capabilitiesOf(table: MethodTable): {
  streaming: boolean;
  pushNotifications: boolean;
  extendedAgentCard: boolean;
} {
  const any = (...names: string[]) => names.some((n) => Object.hasOwn(table, n));
  return {
    streaming: any('SendStreamingMessage', 'SubscribeToTask'),
    pushNotifications: any(
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ),
    extendedAgentCard: any('GetExtendedAgentCard'),
  };
}

/** The part of a table a capsule's exports.methods lets it serve (door extension methods stay). */
export function servedPart(table: MethodTable, exported: readonly string[] | undefined): MethodTable {
  const served = servedMethods(exported);
  return served
    ? pickMethods(
        table,
        Object.keys(table).filter((n) => servesMethod(served, n)),
      )
    : table;
}
