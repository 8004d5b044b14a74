import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

// One deeply nested line in a trace (forged or damaged) must not stop `trace show --events`:
// it is skipped and counted, and every other line prints.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-deep-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('trace show --events skips and counts a line nested too deeply to print', { timeout: 60_000 }, async () => {
  const dir = join(home, 'records', 'ses_deep');
  mkdirSync(dir, { recursive: true });
  const t = Date.now();
  const line = (e: Record<string, unknown>) => JSON.stringify({ ts: new Date(t).toISOString(), session_id: 'ses_deep', ...e });
  const deep = '['.repeat(20_000) + ']'.repeat(20_000);
  const file = join(dir, 'trace.jsonl');
  writeFileSync(
    file,
    [
      line({ event_type: 'session_start', capsule: 'x', version: '1' }),
      line({ event_type: 'task_start', task_id: 'tsk_1', text: 'hi' }),
      `{"ts":"${new Date(t).toISOString()}","event_type":"note","session_id":"ses_deep","x":${deep}}`,
      line({ event_type: 'task_end', task_id: 'tsk_1', state: 'TASK_STATE_COMPLETED' }),
    ].join('\n') + '\n',
  );
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(process.execPath, [BIN, 'trace', 'show', file, '--events'], { env: { ...process.env, CAPSULE_HOME: home }, timeout: 50_000 }, (err, out, errOut) => done({ code: err ? 1 : 0, stdout: out, stderr: errOut })),
  );
  expect(stderr).not.toContain('Maximum call stack');
  expect(code).toBe(0);
  expect(stdout).toContain('"event_type":"task_end"');
  expect(stderr).toContain('skipped 1 line nested too deeply to print');
});
