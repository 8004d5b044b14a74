import { describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { MOVED_PATH } from '../../src-shared/contract';
import { askMoved, movedAddress } from './moved';
import { createWsClient } from './ws';

// The page learns the Studio's new address only from its own origin, and offers only a Studio
// address on this machine; once it knows, it stops reconnecting to the old one.

const PAGE = 'http://127.0.0.1:4100';

describe('moved Studio', () => {
  it('accepts another loopback http address only', () => {
    expect(movedAddress({ url: 'http://127.0.0.1:4200' }, PAGE)).toBe('http://127.0.0.1:4200');
    expect(movedAddress({ url: 'http://localhost:4200/' }, PAGE)).toBe('http://localhost:4200');
    for (const url of [
      'http://127.0.0.1:4100',
      'https://127.0.0.1:4200',
      'http://evil.example:4200',
      'http://127.0.0.1',
      'http://me:pw@127.0.0.1:4200',
      'javascript:alert(1)',
      'not a url',
      42,
    ])
      expect(movedAddress({ url }, PAGE), String(url)).toBeUndefined();
    expect(movedAddress(null, PAGE)).toBeUndefined();
    expect(movedAddress({ url: `http://127.0.0.1:4200/${'x'.repeat(300)}` }, PAGE)).toBeUndefined();
  });

  it('asks its own origin, and a refused or odd answer is no answer', async () => {
    const answers: (Response | Error)[] = [
      new Response(JSON.stringify({ url: 'http://127.0.0.1:4200' }), {
        headers: { 'content-type': 'application/json' },
      }),
      new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }),
      new Response('<html>', { headers: { 'content-type': 'text/html' } }),
      new TypeError('Failed to fetch'),
    ];
    const asked: string[] = [];
    const fakeFetch = (async (url: string) => {
      asked.push(url);
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return next;
    }) as unknown as typeof fetch;
    await expect(askMoved(PAGE, fakeFetch)).resolves.toBe('http://127.0.0.1:4200');
    await expect(askMoved(PAGE, fakeFetch)).resolves.toBeUndefined();
    await expect(askMoved(PAGE, fakeFetch)).resolves.toBeUndefined();
    await expect(askMoved(PAGE, fakeFetch)).resolves.toBeUndefined();
    expect(asked).toEqual(Array(4).fill(`${PAGE}${MOVED_PATH}`));
  });

  it('the socket client stops reconnecting once the Studio moved, and says where', async () => {
    let asked = 0;
    const where: { answer?: string } = {};
    const moved: string[] = [];
    const changes: boolean[] = [];
    // Nothing listens on port 9: every connection attempt fails at once (a browser's socket
    // reports it as a close; the ws package also emits an error, kept quiet here).
    class Quiet extends NodeWebSocket {
      constructor(url: string) {
        super(url);
        this.on('error', () => undefined);
      }
    }
    const client = createWsClient({
      url: 'ws://127.0.0.1:9/ws',
      WebSocketImpl: Quiet as unknown as typeof WebSocket,
      onConnectionChange: (up) => changes.push(up),
      findMoved: async () => (asked++, where.answer),
      onMoved: (url) => moved.push(url),
    });
    await expect.poll(() => asked).toBe(1);
    where.answer = 'http://127.0.0.1:4200';
    // The next drop (after the first backoff) learns it, and no attempt follows.
    await expect.poll(() => moved, { timeout: 5000 }).toEqual(['http://127.0.0.1:4200']);
    const at = asked;
    await new Promise((r) => setTimeout(r, 1500));
    expect(asked).toBe(at);
    expect(changes.every((c) => c === false)).toBe(true);
    await expect(client.invoke('formation.get', {})).rejects.toMatchObject({ code: 'disconnected' });
    client.dispose();
  });
});
