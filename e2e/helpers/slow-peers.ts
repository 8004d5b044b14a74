import { createServer, type Server } from 'node:http';

// Stand-in A2A doors for load tests: each port takes every SendMessage as a task that stays
// TASK_STATE_WORKING, and answers GetTask only after `holdMs` (a long poll), so a delegation to it
// stays in flight for as long as the test runs at almost no CPU on either side (a poll every
// holdMs instead of every second). CancelTask ends the task. Not an A2A implementation: only
// what delegate_task's client reads.

export interface SlowPeers {
  close(): Promise<void>;
}

export async function startSlowPeers(ports: number[], holdMs = 20_000): Promise<SlowPeers> {
  const servers: Server[] = [];
  const held = new Set<() => void>();
  let n = 0;
  const task = (id: string, state = 'TASK_STATE_WORKING') => ({ id, contextId: `ctx_${id}`, status: { state } });
  for (const port of ports) {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const answer = (result: unknown) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: rpc?.id ?? null, result }));
        let rpc: { id?: unknown; method?: string; params?: { id?: string } } | undefined;
        try {
          rpc = JSON.parse(body);
        } catch {
          return void res.writeHead(404).end();
        }
        if (rpc?.method === 'SendMessage') return answer({ task: task(`tsk_slow_${port}_${++n}`) });
        if (rpc?.method === 'CancelTask') return answer(task(rpc.params?.id ?? '', 'TASK_STATE_CANCELED'));
        if (rpc?.method === 'GetTask') {
          const done = () => (held.delete(done), clearTimeout(timer), answer(task(rpc?.params?.id ?? '')));
          const timer = setTimeout(done, holdMs);
          held.add(done);
          return;
        }
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((ok, fail) => server.once('error', fail).listen(port, '127.0.0.1', () => ok()));
    servers.push(server);
  }
  return {
    async close() {
      for (const done of [...held]) done();
      await Promise.all(servers.map((s) => new Promise<void>((ok) => (s.closeAllConnections(), s.close(() => ok())))));
    },
  };
}
