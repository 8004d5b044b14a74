import { agentMessageTo10, messageTo03, taskTo10, type AgentCard, type Message } from '../../src-shared/a2a';
import { METHODS_10_TO_03 } from './jsonrpc';

// Speaking A2A 0.3 to an agent whose card offers nothing newer: the 0.3 method names, `kind`
// shapes and `blocking` (0.3's default is false, so returnImmediately: true means blocking: false),
// and its bare results read back in 1.0 shape. The shape mapping itself is src-shared/a2a/compat03.

export type Dialect = '1.0' | '0.3';

/** The 1.0 methods the peer client uses, by their 0.3 names. */
export const METHODS_TO_03 = METHODS_10_TO_03;

const major = (v: unknown) => (typeof v === 'string' ? Number.parseInt(v, 10) : Number.NaN);

/**
 * The protocol to speak, from a card: 1.0 when a JSON-RPC interface says 1.x (or the card has
 * no version at all), 0.3 when every version it names is 0.x (a 0.3 card's top-level
 * protocolVersion, or 0.3 interfaces).
 */
export function dialectOfCard(card: AgentCard & { protocolVersion?: unknown }): { dialect: Dialect; version: string } {
  const jsonrpc = (card.supportedInterfaces ?? []).filter(
    (i) => typeof i?.protocolBinding === 'string' && i.protocolBinding.toUpperCase() === 'JSONRPC',
  );
  const versions = [...jsonrpc.map((i) => i.protocolVersion), card.protocolVersion].filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  if (versions.length === 0 || versions.some((v) => major(v) >= 1))
    return { dialect: '1.0', version: versions.find((v) => major(v) >= 1) ?? '' };
  return { dialect: '0.3', version: versions[0] };
}

/** A 1.0 request's params as the 0.3 method takes them. */
export function paramsTo03(method: string, params: Record<string, any>): Record<string, unknown> {
  if (method === 'SendMessage') {
    const p = params as {
      message: Message;
      configuration?: { returnImmediately?: boolean; historyLength?: number; acceptedOutputModes?: string[] };
      metadata?: Record<string, unknown>;
    };
    const c = p.configuration ?? {};
    return {
      message: messageTo03(p.message),
      configuration: {
        acceptedOutputModes: c.acceptedOutputModes ?? ['text/plain', 'application/json'],
        blocking: c.returnImmediately !== true,
        ...(c.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
      },
      ...(p.metadata ? { metadata: p.metadata } : {}),
    };
  }
  return { id: params.id, ...(params.historyLength !== undefined ? { historyLength: params.historyLength } : {}) };
}

/** A 0.3 result in the shape the 1.0 method answers (SendMessage wraps it as {task} or {message}). */
export function resultTo10(method: string, result: unknown): unknown {
  if (!result || typeof result !== 'object') return result;
  const r = result as Record<string, any>;
  if (method !== 'SendMessage') return r.kind === 'task' || (r.id && r.status) ? taskTo10(r) : r;
  if (r.kind === 'message') return { message: agentMessageTo10(r) };
  if (r.kind === 'task' || (r.id && r.status)) return { task: taskTo10(r) };
  return r;
}
