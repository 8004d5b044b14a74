import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonRpcId } from '../../src-shared/a2a';
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
  request: FastifyRequest;
  reply: FastifyReply;
  headers: IncomingHttpHeaders;
}

export type MethodHandler = (ctx: MethodContext) => unknown;

/** Returned by a handler that has written the reply itself. */
export const REPLIED: unique symbol = Symbol('door.replied');

/** The methods one door serves, by JSON-RPC method name. */
export type MethodTable = Readonly<Record<string, MethodHandler>>;

/** The part of a table whose names are listed (names the table lacks are left out). */
export function pickMethods(table: MethodTable, names: readonly string[]): MethodTable {
  return Object.fromEntries(names.filter((n) => Object.hasOwn(table, n)).map((n) => [n, table[n]]));
}

/** Capabilities a card declares follow from the table: streaming and push only when served. */
export function capabilitiesOf(table: MethodTable): { streaming: boolean; pushNotifications: boolean } {
  return {
    streaming: Object.hasOwn(table, 'SendStreamingMessage'),
    pushNotifications: Object.hasOwn(table, 'CreateTaskPushNotificationConfig'),
  };
}
