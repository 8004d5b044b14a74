import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createExposureStore, EXPOSURES_FILE } from './exposures';

describe('exposure store', () => {
  it('answers a gateway call from memory, and sees another process edit the file soon after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capsule-exposures-'));
    const gateway = createExposureStore(dir);
    const cli = createExposureStore(dir);
    try {
      // Another process exposes a capsule: the gateway's watcher (or its recheck) picks it up.
      const { token } = cli.enable('worker');
      await vi.waitFor(() => expect(gateway.authenticate(token)?.capsule).toBe('worker'), { timeout: 5000 });

      // A call reads no file: one written over just now is not seen by the call that follows it.
      const revoked: string[][] = [];
      gateway.onRevoked((ids) => revoked.push(ids));
      writeFileSync(join(dir, EXPOSURES_FILE), '{"version":1,"exposures":[]}\n');
      expect(gateway.authenticate(token)?.capsule).toBe('worker');
      // ...but the watcher does, and the token stops working.
      await vi.waitFor(() => expect(gateway.authenticate(token)).toBeUndefined(), { timeout: 5000 });
      expect(revoked).toHaveLength(1);
      expect(gateway.list()).toEqual([]);
    } finally {
      gateway.dispose();
      cli.dispose();
    }
  });

  it('holds a revoke or rotate by another process for the very next request (current), without waiting for the watcher', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capsule-exposures-'));
    const gateway = createExposureStore(dir);
    const cli = createExposureStore(dir);
    try {
      const { token } = cli.enable('worker');
      await gateway.current();
      expect(gateway.authenticate(token)?.capsule).toBe('worker');
      const { token: rotated } = cli.rotate('worker');
      // Several requests arrive together: each sees the file as it is after the rotate.
      await Promise.all([gateway.current(), gateway.current(), gateway.current()]);
      expect(gateway.authenticate(token)).toBeUndefined();
      expect(gateway.authenticate(rotated)?.capsule).toBe('worker');
      expect(cli.revoke('worker')).toBe(true);
      await gateway.current();
      expect(gateway.authenticate(rotated)).toBeUndefined();
    } finally {
      gateway.dispose();
      cli.dispose();
    }
  });

  it('re-reads the file before a change, so it never overwrites what another process added', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capsule-exposures-'));
    const a = createExposureStore(dir);
    const b = createExposureStore(dir);
    try {
      a.enable('one');
      b.enable('two');
      a.enable('three');
      expect(a.list().map((e) => e.capsule)).toEqual(['one', 'two', 'three']);
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});
