import { expect, it, vi } from 'vitest';

// `capsule studio` is the product's web shell: loading it must not load the e2e tests' tunnel
// stand-in. The stand-in's module is replaced by one that records being loaded.

const loaded = vi.hoisted(() => ({ testing: false, standIn: false }));
vi.mock('../tunnel/testing', () => {
  loaded.testing = true;
  return { standInProvider: () => undefined };
});
vi.mock('./tunnel-stand-in', () => {
  loaded.standIn = true;
  return { standInPorts: () => ({}) };
});

it('loads no test support when the studio command is loaded', async () => {
  const studio = await import('./studio');
  expect(typeof studio.main).toBe('function');
  expect(loaded).toEqual({ testing: false, standIn: false });
});
