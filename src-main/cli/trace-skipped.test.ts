import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

// A forged or damaged trace must neither stop `capsule trace` nor change what it says about the
// session: a line nested too deeply to print, and lines claiming another session, are skipped,
// counted and reported where a torn last line is; every other line is read.

const BIN = resolve(__dirname, '../../bin/capsule.js');
const home = mkdtempSync(join(tmpdir(), 'capsule-skipped-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const capsule = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CAPSULE_HOME: home }, timeout: 50_000 },
      (err, out, errOut) => done({ code: err ? 1 : 0, stdout: out, stderr: errOut }),
    ),
  );

const ts = new Date().toISOString();
const line = (session: string, e: Record<string, unknown>) => JSON.stringify({ ts, session_id: session, ...e });

it(
  'skips and counts a deep line and lines of another session in trace ls, show and show --events',
  { timeout: 120_000 },
  async () => {
    const id = 'ses_0123456789abcdef0123456789abcdef';
    const dir = join(home, 'records', id);
    mkdirSync(dir, { recursive: true });
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    writeFileSync(
      join(dir, 'trace.jsonl'),
      [
        line(id, { event_type: 'session_start', capsule: 'real', version: '1' }),
        line(id, { event_type: 'task_start', task_id: 'tsk_1', text: 'hi' }),
        // Forged: another session's start and two tasks, in this session's file.
        line('ses_forged', { event_type: 'session_start', capsule: 'forged', version: '9' }),
        line('ses_forged', { event_type: 'task_start', task_id: 'tsk_2' }),
        line('ses_forged', { event_type: 'tool_call', task_id: 'tsk_3', name: 'x' }),
        `{"ts":"${ts}","event_type":"note","session_id":"${id}","x":${deep}}`,
        line(id, { event_type: 'task_end', task_id: 'tsk_1', state: 'TASK_STATE_COMPLETED' }),
      ].join('\n') + '\n',
    );

    const ls = await capsule('trace', 'ls');
    expect(ls.code).toBe(0);
    const row = ls.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(row).toMatch(/\sreal v1\s/);
    expect(row.split(/\s{2,}/)[5]).toBe('1'); // TASKS
    expect(ls.stdout).not.toContain('forged');
    expect(ls.stderr).toContain('skipped 4 lines (1 nested deeper than 256 levels, 3 claiming another session)');

    const show = await capsule('trace', 'show', id);
    expect(show.stdout).toContain('capsule:    real v1');
    expect(show.stdout).toContain(
      'note:       skipped 4 lines (1 nested deeper than 256 levels, 3 claiming another session) of trace.jsonl',
    );

    const events = await capsule('trace', 'show', id, '--events');
    expect(events.stderr).not.toContain('Maximum call stack');
    expect(events.code).toBe(0);
    expect(
      events.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).event_type),
    ).toEqual(['session_start', 'task_start', 'task_end']);
  },
);
