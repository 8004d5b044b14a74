import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type Artifact,
  type Part,
  type Task,
  type TaskState,
} from '../../src-shared/a2a';
import type { PeerCallOptions, PeerClient } from './client';
import { PeerError } from './errors';

// Follows a peer task to its end by polling GetTask with a short backoff. (Streaming can take
// over later where the peer's card offers it; polling works with every A2A 1.0 door.)

export interface FollowOptions extends PeerCallOptions {
  /** First wait between polls; it grows by half up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Consecutive failed polls tolerated before the peer counts as lost. */
  maxFailures?: number;
}

const settled = (s: TaskState) => TERMINAL_STATES.has(s) || INTERRUPTED_STATES.has(s);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves with the task once it is terminal or waits on its caller; rejects when aborted. */
export async function followTask(client: PeerClient, url: string, task: Task, opts: FollowOptions = {}): Promise<Task> {
  let current = task;
  let delay = opts.firstDelayMs ?? 50;
  let failures = 0;
  while (!settled(current.status.state)) {
    await sleep(delay, opts.signal);
    delay = Math.min(Math.ceil(delay * 1.5), opts.maxDelayMs ?? 1000);
    try {
      current = await client.getTask(url, current.id, { ...opts, historyLength: 0 });
      failures = 0;
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      // A task the peer forgot or an unanswerable request will not get better by waiting.
      if (!(err instanceof PeerError) || err.reason === 'rpc_error' || ++failures > (opts.maxFailures ?? 3)) throw err;
    }
  }
  return current;
}

function partText(p: Part): string {
  if (typeof p.text === 'string') return p.text;
  if (p.data !== undefined) return JSON.stringify(p.data);
  if (p.url) return p.url;
  if (p.raw) return `[${p.mediaType ?? 'file'}${p.filename ? ` ${p.filename}` : ''}, ${p.raw.length} base64 chars]`;
  return '';
}

const artifactText = (a: Artifact) => a.parts.map(partText).filter(Boolean).join('\n');

/** What a task answered: its `response` artifact, else all artifacts, else its status message. */
export function responseText(task: Task): string {
  const artifacts = task.artifacts ?? [];
  const response = artifacts.find((a) => a.name === 'response' || a.artifactId === 'response');
  if (response) return artifactText(response);
  if (artifacts.length) return artifacts.map(artifactText).join('\n\n');
  return task.status.message ? task.status.message.parts.map(partText).join('\n') : '';
}
