import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestSession, type TestSession } from './testing';

// A task whose trace lines could not be written is not reported as safely recorded: its final
// status says the record is incomplete. The full disk is a file system whose writes (sync and
// async) fail while `full` is set.

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
    if (disk.full) throw enospc();
    return (fs.writeSync as (...a: unknown[]) => number)(...args);
  }) as typeof fs.writeSync;
  const write = ((...args: unknown[]) => {
    const cb = args.at(-1) as (err: Error | null, n: number) => void;
    if (disk.full) return void setImmediate(() => cb(enospc(), 0));
    (fs.write as (...a: unknown[]) => void)(...args);
  }) as typeof fs.write;
  return { ...fs, writeSync, write, default: { ...fs, writeSync, write } };
});

let ts: TestSession | undefined;
afterEach(async () => {
  disk.full = false;
  vi.restoreAllMocks();
  await ts?.dispose();
  ts = undefined;
});

const send = (text: string, extra: Record<string, unknown> = {}) =>
  ts!.rpc('SendMessage', { message: { messageId: text, role: 'ROLE_USER', parts: [{ text }], ...extra } });
const statusText = (task: any) => task.status.message.parts.map((p: { text?: string }) => p.text ?? '').join('');

describe('a task whose trace lines were lost', () => {
  it('says its record is incomplete, and a task after the disk recovers does not', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    ts = await startTestSession({ inference: { rehearsal: { delay_ms: 20 } } });
    const before = await send('before');
    expect(statusText(before.result.task)).toBe('task completed');

    disk.full = true;
    const lost = await send('during');
    expect(lost.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(lost.result.task.status.message.metadata.record).toMatch(/^its trace record is incomplete/);
    expect(statusText(lost.result.task)).toMatch(
      /^task completed; its trace record is incomplete: \d+ line\(s\) of this session could not be written \(the session's trace\.jsonl\)$/,
    );

    disk.full = false;
    await send('flush'); // the first task after: writes work again once this one's lines go out
    const after = await send('after');
    expect(statusText(after.result.task)).toBe('task completed');
  });
});
