import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTraceWriter } from './writer';

describe('trace writer', () => {
  it('ends a torn last line before appending, and adds nothing to a file that ends cleanly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-'));
    const torn = join(dir, 'torn.jsonl');
    writeFileSync(torn, '{"event_type":"a"}\n{"event_ty');
    const w = createTraceWriter(torn, 'ses_x');
    w.append({ event_type: 'session_start' });
    w.dispose();
    const lines = readFileSync(torn, 'utf8').split('\n');
    expect(lines.slice(0, 2)).toEqual(['{"event_type":"a"}', '{"event_ty']);
    expect(JSON.parse(lines[2])).toMatchObject({ event_type: 'session_start' });

    const clean = join(dir, 'clean.jsonl');
    writeFileSync(clean, '{"event_type":"a"}\n');
    const w2 = createTraceWriter(clean, 'ses_x');
    w2.append({ event_type: 'b' });
    w2.dispose();
    expect(readFileSync(clean, 'utf8').split('\n')).toHaveLength(3);
  });

  it('appends one JSON line per event with ts, event_type and session_id', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'ses', 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    w.append({ event_type: 'task_start', task_id: 'tsk_1', context_id: 'c' });
    w.flushSync();
    const [line] = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(line).toMatchObject({ event_type: 'task_start', session_id: 'ses_x', task_id: 'tsk_1' });
    expect(line.ts).toMatch(/Z$/);
    w.dispose();
  });

  it('writes the task id right after the session id, wherever the event put it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    const event: { event_type: string } & Record<string, unknown> = {
      event_type: 'tool_call',
      name: 'shell',
      arguments: { cmd: 'ls' },
    };
    event.task_id = 'tsk_1'; // added last, as the runtime stamps task lines
    w.append(event);
    w.append({ event_type: 'note', text: 'no task' });
    w.dispose();
    const [withTask, without] = readFileSync(path, 'utf8').trim().split('\n');
    expect(Object.keys(JSON.parse(withTask))).toEqual([
      'ts',
      'event_type',
      'session_id',
      'task_id',
      'name',
      'arguments',
    ]);
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

  it('writes a field serialized by the caller last, as the whole line would have it, and masks it too', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'trace.jsonl');
    const secret = 'sk-live-123456';
    const w = createTraceWriter(path, 'ses_x', [secret]);
    const seen: Array<Record<string, unknown>> = [];
    w.subscribe((e) => seen.push(e as unknown as Record<string, unknown>));
    const final = ['tsk_1', 'ctx', 'TASK_STATE_COMPLETED', null, 'done', `answer “${secret}”`, null];
    w.append(
      { event_type: 'task_end', task_id: 'tsk_1', state: 'TASK_STATE_COMPLETED' },
      { key: 'final', value: final, json: JSON.stringify(final) },
    );
    w.append({ event_type: 'task_end', task_id: 'tsk_2', state: 'TASK_STATE_COMPLETED', final });
    w.dispose();
    const [raw, whole] = readFileSync(path, 'utf8').trim().split('\n');
    expect(raw).not.toContain('123456');
    expect(raw.replace(/"ts":"[^"]*"/, '').replace('tsk_1"', 'tsk_2"')).toBe(whole.replace(/"ts":"[^"]*"/, ''));
    expect(JSON.parse(raw).final[5]).toBe('answer “***”');
    expect(seen[0].final).toEqual(['tsk_1', 'ctx', 'TASK_STATE_COMPLETED', null, 'done', 'answer “***”', null]);
  });

  it('keeps every line whole and in order through a full buffer, lines larger than it and multi-byte text', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    expect(w.written).toBe(0); // from here on every write keeps it up to date
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // Quotes, accents, an emoji (two UTF-16 units, four bytes) and, now and then, a line of 200 k characters.
      const text = i % 997 === 5 ? `“big” ${'é🙂'.repeat(100_000)}` : `line ${i} “${'ü'.repeat(i % 50)}” 🙂`;
      texts.push(text);
      if (i % 3 === 0)
        w.append(
          { event_type: 'task_end', task_id: `tsk_${i}`, text },
          { key: 'final', value: [i, text], json: JSON.stringify([i, text]) },
        );
      else w.append({ event_type: 'frame', text });
      if (i % 500 === 0) w.flushSync();
    }
    w.flushSync();
    const size = w.written;
    w.dispose();
    const raw = readFileSync(path);
    expect(raw.length).toBe(size);
    const lines = raw.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).text)).toEqual(texts);
    expect(JSON.parse(lines[3]).final).toEqual([3, texts[3]]);
  });

  it('writes off the main thread, in order, and flush() resolves once the lines so far are in the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'trace-')), 'trace.jsonl');
    const w = createTraceWriter(path, 'ses_x');
    const texts: string[] = [];
    let end = 0;
    for (let i = 0; i < 2000; i++) {
      const text = i % 499 === 7 ? 'ü'.repeat(70_000) : `line ${i}`;
      texts.push(text);
      w.append({ event_type: 'frame', text });
      if (i % 300 === 0) {
        // The lines appended so far end at the offset flush() resolves with.
        end = await w.flush();
        const raw = readFileSync(path);
        expect(raw.subarray(0, end).toString('utf8').split('\n').length - 1).toBe(i + 1);
      }
      // A synchronous flush while a write is in flight writes the same bytes at the same place.
      if (i % 700 === 1) w.flushSync();
    }
    const tail = w.flush();
    w.append({ event_type: 'frame', text: 'after' });
    texts.push('after');
    // The line appended after the call goes out in the same write, yet lies past the offset.
    const before = await tail;
    expect(before).toBeGreaterThan(end);
    expect(JSON.parse(readFileSync(path).subarray(before).toString('utf8')).text).toBe('after');
    await w.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l).text)).toEqual(texts);
    w.append({ event_type: 'frame', text: 'closed' }); // dropped, not thrown
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(texts.length + 1);
  });
});
