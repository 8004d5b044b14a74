import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTraceFiles, findTraceFilesAsync, findTraceOfSession } from './records';

describe('finding trace files under a records root', () => {
  it('finds the same files asynchronously, and a session by its first line, children included', async () => {
    const root = mkdtempSync(join(tmpdir(), 'capsule-records-'));
    const put = (dir: string, session: string) => {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'trace.jsonl'), `{"event_type":"session_start","session_id":"${session}"}\n`);
    };
    put('ses_a', 'ses_a');
    put('ses_a/children/worker-01', 'ses_child');
    put('renamed', 'ses_b'); // a folder named otherwise: the first line says whose it is
    mkdirSync(join(root, 'empty'));

    expect((await findTraceFilesAsync(root)).sort()).toEqual(findTraceFiles(root).sort());
    expect(await findTraceOfSession(root, 'ses_child')).toBe(join(root, 'ses_a/children/worker-01/trace.jsonl'));
    expect(await findTraceOfSession(root, 'ses_b')).toBe(join(root, 'renamed/trace.jsonl'));
    expect(await findTraceOfSession(root, 'ses_none')).toBeUndefined();
    expect(await findTraceOfSession(join(root, 'missing'), 'ses_a')).toBeUndefined();
  });
});
