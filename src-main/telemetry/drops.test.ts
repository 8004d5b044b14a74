import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startTestSession, type TestSession } from '../runtime/testing';
import { traceLines } from '../runtime/trace-lines';
import { DROPPED_EVENT, telemetryFor } from './index';

// Exporting never blocks the runtime: against a collector that takes requests and never answers,
// with a queue of 3 spans, tasks still complete at once; the spans that do not fit are dropped,
// counted, and the session's trace says how many.

let ts: TestSession | undefined;
let server: Server | undefined;
afterEach(async () => {
  await ts?.dispose();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  ts = server = undefined;
});

it('drops what does not fit the bounded queue, counts it, and traces it, while tasks go on', async () => {
  server = createServer(() => undefined); // never answers
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const env = {
    ...process.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    OTEL_BSP_MAX_QUEUE_SIZE: '3',
    OTEL_BSP_SCHEDULE_DELAY: '10',
  };
  ts = await startTestSession({ inference: { rehearsal: { replies: [{ turns: [{ text: 'ok' }] }] } } }, { env });
  for (let i = 0; i < 10; i++) {
    const r = await ts.rpc('SendMessage', {
      message: { messageId: `m-${i}`, role: 'ROLE_USER', parts: [{ text: `task ${i}` }] },
    });
    expect(r.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  }
  const stats = telemetryFor(env)!.stats();
  // 10 tasks made 20 spans (a task and a turn each); at most 3 wait, one batch is stuck in export.
  expect(stats.dropped).toBeGreaterThan(0);
  expect(stats.queued).toBeLessThanOrEqual(3);
  expect(stats.dropped + stats.queued + stats.exported).toBe(20);
  const deadline = Date.now() + 5000;
  let line: Record<string, any> | undefined;
  // The count is reported at most once a second, the latest count last.
  while (line?.dropped !== stats.dropped && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    line = traceLines(ts.session).findLast((l) => l.event_type === DROPPED_EVENT);
  }
  expect(line).toMatchObject({ dropped: stats.dropped, max_queue: 3 });
});
