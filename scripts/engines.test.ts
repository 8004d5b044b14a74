import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// npm install is quiet on the Node versions package.json asks for: every locked package's own
// `engines.node` accepts the lowest version of each range we name (npm prints EBADENGINE otherwise).

// semver comes with npm's tooling (no types installed): loaded untyped.
const semver = createRequire(__filename)('semver') as {
  satisfies(v: string, r: string): boolean;
  minVersion(r: string): { version: string };
};
const ROOT = resolve(__dirname, '..');
const json = (file: string) => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));

describe('Node versions', () => {
  it('every installed package accepts the oldest Node of each range package.json requires', () => {
    const required: string = json('package.json').engines.node;
    const lowest = required.split('||').map((r) => semver.minVersion(r.trim()).version);
    expect(lowest).toEqual(['22.13.0', '24.0.0']);
    const lock = json('package-lock.json') as {
      packages: Record<string, { engines?: { node?: string }; optional?: boolean; os?: string[] }>;
    };
    expect(lock.packages[''].engines?.node).toBe(required);
    const refusing = Object.entries(lock.packages)
      .filter(([name, p]) => name && p.engines?.node && !(p.optional && p.os))
      .flatMap(([name, p]) =>
        lowest
          .filter((v) => !semver.satisfies(v, p.engines!.node!))
          .map((v) => `${name} (${p.engines!.node}) refuses ${v}`),
      );
    expect(refusing).toEqual([]);
  });
});
