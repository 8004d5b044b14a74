import type { Task } from '../../src-shared/a2a';
import { CoreError, type CancelAnswer, type ResidueView, type StopSessionAnswer } from '../../src-shared/contract';
import { newMessageId } from '../../src-shared/ids';

// The core talks to a running capsule the way any A2A client would: JSON-RPC over HTTP to its
// door. The renderer never reaches a door itself.

export class DoorRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export async function callDoor<T>(url: string, method: string, params: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal,
    });
  } catch (err) {
    throw new CoreError('door_error', `The door at ${url} did not answer: ${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`);
  }
  const text = await res.text();
  let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new CoreError('door_error', `The door at ${url} answered HTTP ${res.status} without JSON-RPC`);
  }
  if (body.error) throw new DoorRpcError(body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

const asCoreError = (err: unknown): unknown =>
  err instanceof DoorRpcError ? new CoreError(err.code === -32001 ? 'not_found' : 'door_error', `${err.message} (${err.code})`, { rpcCode: err.code }) : err;

export async function sendText(url: string, text: string, contextId: string | undefined, returnImmediately: boolean): Promise<Task> {
  const message = { messageId: newMessageId(), role: 'ROLE_USER', parts: [{ text }], ...(contextId ? { contextId } : {}) };
  try {
    const result = await callDoor<{ task?: Task; message?: unknown }>(url, 'SendMessage', { message, configuration: { returnImmediately } });
    if (!result?.task) throw new CoreError('door_error', 'The door answered with a message instead of a task');
    return result.task;
  } catch (err) {
    throw asCoreError(err);
  }
}

export async function getTask(url: string, id: string, historyLength?: number): Promise<Task> {
  try {
    return await callDoor<Task>(url, 'GetTask', { id, ...(historyLength !== undefined ? { historyLength } : {}) });
  } catch (err) {
    throw asCoreError(err);
  }
}

function residueOf(task: Task | undefined): ResidueView[] {
  const artifact = task?.artifacts?.find((a) => a.name === 'residue');
  for (const part of artifact?.parts ?? []) {
    const data = part.data as { residue?: unknown } | unknown[] | undefined;
    if (Array.isArray(data)) return data as ResidueView[];
    if (data && Array.isArray((data as { residue?: unknown }).residue)) return (data as { residue: ResidueView[] }).residue;
  }
  return [];
}

export async function cancelTask(url: string, id: string): Promise<CancelAnswer> {
  try {
    const task = await callDoor<Task>(url, 'CancelTask', { id });
    return { task, residue: residueOf(task) };
  } catch (err) {
    if (!(err instanceof DoorRpcError)) throw err;
    const info = Array.isArray(err.data) ? (err.data[0] as { metadata?: { state?: string } }) : undefined;
    return { residue: [], refused: { code: err.code, message: err.message, ...(info?.metadata?.state ? { state: info.metadata.state as never } : {}) } };
  }
}

export async function stopSession(url: string): Promise<StopSessionAnswer> {
  try {
    return await callDoor<StopSessionAnswer>(url, 'murmur.StopSession', {});
  } catch (err) {
    throw asCoreError(err);
  }
}
