import { describe, expect, it } from 'vitest';
import { STAND_IN_VAR, standInPorts } from './tunnel-stand-in';

// The e2e tests' loopback stand-in for cloudflared is chosen only by the variable, only for
// cloudflared, and says where its edge listens (loopback).

describe('the test-only tunnel stand-in', () => {
  it('is not there unless the variable is exactly 1', () => {
    expect(standInPorts({}, () => undefined)).toEqual({});
    expect(standInPorts({ [STAND_IN_VAR]: 'yes' }, () => undefined)).toEqual({});
  });

  it('stands in for cloudflared on loopback, and leaves ngrok the real one', async () => {
    const lines: string[] = [];
    const ports = standInPorts({ [STAND_IN_VAR]: '1' }, (l) => lines.push(l));
    expect(ports.tunnelProvider!('ngrok').name).toBe('ngrok');
    const provider = ports.tunnelProvider!(undefined);
    expect(provider.name).toBe('stand-in');
    const opened = await provider.open('http://127.0.0.1:9', { timeoutMs: 1000, env: {} });
    try {
      expect(opened.publicUrl).toBe('https://tunnel.example.test');
      expect(lines.at(-1)).toMatch(
        /^tunnel stand-in: https:\/\/tunnel\.example\.test answers at http:\/\/127\.0\.0\.1:\d+$/,
      );
    } finally {
      await opened.close();
    }
  });
});
