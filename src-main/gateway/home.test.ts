import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processStart } from '../trace';
import { GATEWAY_RECORD_FILE, readGatewayRecord, writeGatewayRecord } from './home';

// gateway.json tells `capsule expose` where the running gateway is. After a kill -9 the file
// stays behind; once the system hands its pid to another process, that process must not be taken
// for the gateway (its url would be a dead end). The record keeps when its process started.

const dir = mkdtempSync(join(tmpdir(), 'capsule-gateway-home-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = { url: 'http://127.0.0.1:4455', host: '127.0.0.1', port: 4455, started_at: '2026-12-02T00:00:00.000Z' };
const onLinux = processStart(process.pid) !== undefined;

describe('the gateway record', () => {
  it('is read back while its process runs', () => {
    writeGatewayRecord(dir, { pid: process.pid, ...base });
    expect(readGatewayRecord(dir)).toMatchObject({ pid: process.pid, ...base });
  });

  it.skipIf(!onLinux)(
    'keeps when its process started, and is not read back for a newer process with the same pid',
    () => {
      writeGatewayRecord(dir, { pid: process.pid, ...base });
      const written = JSON.parse(readFileSync(join(dir, GATEWAY_RECORD_FILE), 'utf8'));
      expect(written.pid_start).toBe(processStart(process.pid));
      // This process stands in for the stranger the pid went to: the record says its owner started at another time.
      writeFileSync(
        join(dir, GATEWAY_RECORD_FILE),
        JSON.stringify({ ...written, pid_start: String(Number(written.pid_start) - 1) }),
      );
      expect(readGatewayRecord(dir)).toBeUndefined();
    },
  );

  it('is not read back once its process is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, GATEWAY_RECORD_FILE), JSON.stringify({ pid: Number(gone.stdout), ...base }));
    expect(readGatewayRecord(dir)).toBeUndefined();
  });

  it('written before records kept a start time, is still read while its pid lives', () => {
    writeFileSync(join(dir, GATEWAY_RECORD_FILE), JSON.stringify({ pid: process.pid, ...base }));
    expect(readGatewayRecord(dir)).toMatchObject({ pid: process.pid });
  });
});
