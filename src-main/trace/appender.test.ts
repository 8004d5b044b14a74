import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLineAppender } from './appender';

// Lines appended off the main thread: in order, written together while a write is under way, never
// failing the caller, and bounded in memory.

const dir = mkdtempSync(join(tmpdir(), 'capsule-appender-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createLineAppender', () => {
  it('writes every line in order, the ones queued during a write together in the next', async () => {
    const file = join(dir, 'a.jsonl');
    const log = createLineAppender(file);
    for (let i = 0; i < 1000; i++) log.append(JSON.stringify({ i }));
    await log.flush();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    log.append('after');
    await log.flush();
    expect(readFileSync(file, 'utf8').endsWith('after\n')).toBe(true);
  });

  it('never throws to its caller when the file cannot be written', async () => {
    const log = createLineAppender(join(dir, 'missing-folder', 'a.jsonl'));
    expect(() => log.append('lost')).not.toThrow();
    await expect(log.flush()).resolves.toBeUndefined();
  });

  it('drops what a slow disk cannot keep up with instead of holding it in memory', async () => {
    const log = createLineAppender(join(dir, 'b.jsonl'));
    const line = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 200; i++) log.append(line); // 12.5 MiB queued in one turn
    expect(log.dropped).toBeGreaterThan(100);
    await log.flush();
    const written = readFileSync(join(dir, 'b.jsonl'), 'utf8').split('\n').length - 1;
    expect(written + log.dropped).toBe(200);
  });
});
