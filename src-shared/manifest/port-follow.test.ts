import { describe, expect, it } from 'vitest';
import { followPortOps, movedEntry } from './port-follow';

describe('allow entries follow a worker port', () => {
  it('moves each spelling of the old loopback port, in place', () => {
    const allow = [
      'localhost:4100',
      'api.example.com:4100',
      'http://127.0.0.1:4100/a2a',
      '[::1]:4100',
      'localhost:4200',
      'localhost',
    ];
    expect(followPortOps(allow, 4100, 4300)).toEqual([
      { op: 'set', path: ['capabilities', 'network', 'allow', '0'], value: 'localhost:4300' },
      { op: 'set', path: ['capabilities', 'network', 'allow', '2'], value: 'http://127.0.0.1:4300/a2a' },
      { op: 'set', path: ['capabilities', 'network', 'allow', '3'], value: '[::1]:4300' },
    ]);
  });

  it('changes nothing when the port is the same or the entry names no loopback port', () => {
    expect(followPortOps(['localhost:1'], 1, 1)).toEqual([]);
    expect(movedEntry('example.com:80', 81)).toBeUndefined();
    expect(movedEntry('localhost', 81)).toBeUndefined();
  });
});
