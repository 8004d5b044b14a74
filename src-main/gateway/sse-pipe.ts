import type { FastifyReply } from 'fastify';

// Pipes a door's SSE answer to the caller chunk by chunk (nothing buffered but a partial event
// when translating to 0.3). A revocation ends the stream at once: the caller's response is ended
// and the request to the door aborted, which closes the door's side of the stream.

export interface SsePipe {
  res: Response;
  reply: FastifyReply;
  headers: Record<string, string>;
  abort: AbortController;
  /** Rewrites each event's JSON-RPC envelope (0.3 compatibility). */
  translate?: (envelope: any) => any;
  track(close: () => void): () => void;
}

function translateEvent(event: string, translate: (e: any) => any): string {
  const data = event
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!data) return `${event}\n\n`;
  try {
    const other = event.split('\n').filter((l) => !l.startsWith('data:'));
    return `${[...other, `data: ${JSON.stringify(translate(JSON.parse(data)))}`].join('\n')}\n\n`;
  } catch {
    return `${event}\n\n`;
  }
}

export async function pipeSse({ res, reply, headers, abort, translate, track }: SsePipe): Promise<string> {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(res.status, { ...headers, 'cache-control': 'no-cache', connection: 'keep-alive' });
  out.flushHeaders();
  let ending = 'stream';
  const untrack = track(() => {
    ending = 'revoked';
    abort.abort();
    out.end();
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!translate) {
        out.write(value);
        continue;
      }
      pending += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let cut: number;
      while ((cut = pending.indexOf('\n\n')) >= 0) {
        out.write(translateEvent(pending.slice(0, cut), translate));
        pending = pending.slice(cut + 2);
      }
    }
    if (pending) out.write(translate ? translateEvent(pending, translate) : pending);
  } catch {
    if (ending === 'stream') ending = out.destroyed ? 'client_closed' : 'door_closed';
  } finally {
    untrack();
    if (!out.writableEnded) out.end();
  }
  return ending;
}
