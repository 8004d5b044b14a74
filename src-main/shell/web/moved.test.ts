import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MOVED_PATH } from '../../../src-shared/contract';
import { EARLIER_PORTS_KEPT, pointEarlierAddresses, type EarlierAddresses } from './moved';

// A later web shell answers on the earlier ports for the pages still open there: where the Studio
// runs now, to its own origin's Host only, and nothing else.

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'moved-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer((_q, res) => res.end('someone else'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise((r) => server.close(r)));
  return { port: (server.address() as { port: number }).port, server };
}

function get(
  port: number,
  path: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

async function point(dataDir: string, port: number, url = `http://127.0.0.1:${port}`): Promise<EarlierAddresses> {
  const p = await pointEarlierAddresses({ dataDir, port, url });
  cleanup.push(() => p.dispose());
  return p;
}

const recorded = (dir: string) => JSON.parse(readFileSync(join(dir, 'web-shell.json'), 'utf8')).ports as number[];

describe('earlier web shell addresses', () => {
  it('the first start only records its port; the next one answers on it with its own address', async () => {
    const dir = home();
    const [first, second] = [await freePort(), await freePort()];
    expect((await point(dir, first)).ports).toEqual([]);
    expect(recorded(dir)).toEqual([first]);

    const now = `http://127.0.0.1:${second}`;
    const moved = await point(dir, second, now);
    expect(moved.ports).toEqual([first]);
    expect(recorded(dir)).toEqual([second, first]);

    const answer = await get(first, MOVED_PATH);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ url: now });
    // Readable by the page on that origin only: no CORS header for pages elsewhere.
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('no-store');
    // A reload of the old page lands on the Studio.
    expect(await get(first, '/')).toMatchObject({ status: 307, headers: { location: `${now}/` } });
    expect(await get(first, '/localhost-path', `localhost:${first}`)).toMatchObject({ status: 404 });
    expect((await get(first, `${MOVED_PATH}?x=1`, `localhost:${first}`)).status).toBe(200);
    // A DNS-rebound name, or another port's name, learns nothing.
    expect(await get(first, MOVED_PATH, `rebound.example:${first}`)).toMatchObject({
      status: 403,
      body: expect.not.stringContaining(now),
    });
    expect((await get(first, MOVED_PATH, `127.0.0.1:${second}`)).status).toBe(403);
    // The old page's socket is refused at once, so it asks where the Studio went.
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${first}/ws`, { origin: `http://127.0.0.1:${first}` });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(-1));
    });
    expect(refused).toBe(410);

    await moved.dispose();
    await expect(get(first, MOVED_PATH)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('leaves a busy earlier port to whoever holds it, and keeps a bounded list', async () => {
    const dir = home();
    const busy = await holdPort();
    const free: number[] = [];
    while (free.length < 7) free.push(await freePort());
    const many = [busy.port, ...free];
    writeFileSync(join(dir, 'web-shell.json'), JSON.stringify({ ports: many }));
    const now = await freePort();
    const moved = await point(dir, now);
    // The most recent ones only, the busy one left alone.
    expect(moved.ports).toEqual(free.slice(0, EARLIER_PORTS_KEPT - 1));
    expect(recorded(dir)).toEqual([now, ...many.slice(0, EARLIER_PORTS_KEPT)]);
    expect((await get(busy.port, MOVED_PATH)).body).toBe('someone else');
  });

  it('a damaged or missing record, or a folder it cannot write, never stops the start', async () => {
    const dir = home();
    writeFileSync(join(dir, 'web-shell.json'), '{"ports": ["a"');
    const port = await freePort();
    expect((await point(dir, port)).ports).toEqual([]);
    expect(recorded(dir)).toEqual([port]);
    expect((await point(join(dir, 'missing', 'folder'), await freePort())).ports).toEqual([]);
  });
});
