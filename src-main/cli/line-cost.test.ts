import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

// What one line may cost the readers is bounded: a 50 MiB line (over the 16 MiB limit) is skipped
// and counted by fork's, replay's, the index's and the live trace's readers, streamed past without
// being held whole. A reader holds at most the limit's worth of a line before it knows the line is
// too long, so peak memory grows by about that and a few read buffers (measured: 55 MiB for the
// four readers), not by tens of times the line (before the limit: 710 MiB here; 1.2-1.4 GiB in
// fork alone on a bigger trace). The bound is generous on purpose: it measures memory, never time.

const FIXTURE = resolve(__dirname, 'line-cost.fixture.ts');
const home = mkdtempSync(join(tmpdir(), 'capsule-line-cost-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ID = 'ses_00000000000000000000000000000abc';
const ts = new Date().toISOString();
const line = (e: Record<string, unknown>) => JSON.stringify({ ts, session_id: ID, ...e });

function trace(name: string, middle: string[]): string {
  const records = join(home, name);
  const dir = join(records, ID);
  mkdirSync(dir, { recursive: true });
  const lines = [
    line({ event_type: 'session_start', capsule: 'c', version: '1', driver: 'rehearsal', model: 'm' }),
    line({ event_type: 'a2a_task_received', task_id: 'tsk_1', context_id: 'ctx', text: 'hi' }),
    line({ event_type: 'task_start', task_id: 'tsk_1' }),
    ...middle,
    line({
      event_type: 'task_end',
      task_id: 'tsk_1',
      state: 'TASK_STATE_COMPLETED',
      exit_status: 'ok',
      answer: 'done',
    }),
    line({ event_type: 'session_end', reason: 'over' }),
  ];
  writeFileSync(join(dir, 'trace.jsonl'), lines.join('\n') + '\n');
  return records;
}

function readers(records: string): Promise<{ maxRssMiB: number } & Record<string, Record<string, number>>> {
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', FIXTURE, join(records, ID, 'trace.jsonl'), records, ID],
      { timeout: 200_000, maxBuffer: 1 << 20 },
      (err, out) => (err ? fail(err) : done(JSON.parse(out))),
    ),
  );
}

it('skips a 50 MiB line in every reader with peak memory bounded', { timeout: 240_000 }, async () => {
  const fifty = `{"ts":"${ts}","event_type":"inference","session_id":"${ID}","task_id":"tsk_1","turn":1,"text":"${'y'.repeat(50 * 1024 * 1024)}"}`;
  const small = await readers(trace('small', []));
  const big = await readers(trace('big', [fifty]));
  expect(big.fork).toEqual({ ...small.fork, long: 1 });
  expect(big.replay).toEqual({ ...small.replay, long: 1 });
  expect(big.index).toEqual({ ...small.index, long: 1 });
  expect(big.live).toEqual({ ...small.live, long: 1 });
  expect(big.maxRssMiB - small.maxRssMiB).toBeLessThan(128);
});
