import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTraceWriter } from './writer';

describe('trace writer', () => {
  it('appends one JSON line per event with ts, event_type and session_id', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'ses', 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    w.append({ event_type: 'task_start', task_id: 'tsk_1', context_id: 'c' });
    w.flush();
    const [line] = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(line).toMatchObject({ event_type: 'task_start', session_id: 'ses_x', task_id: 'tsk_1' });
    expect(line.ts).toMatch(/Z$/);
    w.dispose();
  });

  it('writes the task id right after the session id, wherever the event put it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    const event: { event_type: string } & Record<string, unknown> = { event_type: 'tool_call', name: 'shell', arguments: { cmd: 'ls' } };
    event.task_id = 'tsk_1'; // added last, as the runtime stamps task lines
    w.append(event);
    w.append({ event_type: 'note', text: 'no task' });
    w.dispose();
    const [withTask, without] = readFileSync(path, 'utf8').trim().split('\n');
    expect(Object.keys(JSON.parse(withTask))).toEqual(['ts', 'event_type', 'session_id', 'task_id', 'name', 'arguments']);
    expect(Object.keys(JSON.parse(without))).toEqual(['ts', 'event_type', 'session_id', 'text']);
  });

  it('masks secrets in every line, including JSON-escaped ones', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'trace.jsonl');
    const secret = 'sk-"live"-123456';
    const w = createTraceWriter(path, 'ses_x', [secret]);
    const seen: unknown[] = [];
    w.subscribe((e) => seen.push(e));
    w.append({ event_type: 'task_failed', message: `bad key ${secret}` });
    w.dispose();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('123456');
    expect(text).toContain('***');
    expect(JSON.stringify(seen)).not.toContain('123456');
  });
});
