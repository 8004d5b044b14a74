import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src-shared/manifest';
import { createDriver, priceUsd } from '.';

// The manifest picks the driver: artifact name to kind, model, and gateway endpoint and key.

const manifest = (artifact: string, gateway?: Record<string, string>, model = 'some-model') =>
  manifestSchema.parse({
    name: 'm',
    version: '1',
    artifacts: [{ name: artifact, runtime: 'driver', ...(gateway ? { gateway } : {}) }],
    inference: { transport: 'http', model, driver: { artifact } },
  });

describe('createDriver', () => {
  it('builds each provider driver from its artifact', () => {
    expect(createDriver(manifest('murmur/driver-anthropic', { api_key: 'k1234' }, 'claude-sonnet-5'))).toMatchObject({
      kind: 'anthropic',
      model: 'claude-sonnet-5',
    });
    expect(
      createDriver(
        manifest('murmur/driver-openai', { endpoint: 'https://api.openai.com/v1', api_key: 'k1234' }, 'o3-mini-high'),
      ),
    ).toMatchObject({ kind: 'openai' });
    expect(createDriver(manifest('murmur/driver-deepseek', { api_key: 'k1234' }, 'deepseek-r1'))).toMatchObject({
      kind: 'deepseek',
      model: 'deepseek-r1',
    });
    expect(
      createDriver(manifest('capsule/driver-openai-compatible', { endpoint: 'http://127.0.0.1:11434/v1' }, 'llama3.1')),
    ).toMatchObject({ kind: 'openai-compatible' });
  });

  it('names what is missing: a local server needs an endpoint; a harness needs the process transport', () => {
    expect(() => createDriver(manifest('capsule/driver-openai-compatible'))).toThrow(/needs gateway\.endpoint/);
    expect(() => createDriver(manifest('capsule/driver-process'))).toThrow(/inference\.transport: process/);
  });

  it('exports the price table for the spend ceiling', () => {
    expect(priceUsd?.('gpt-4o', 1_000_000, 0)).toBe(2.5);
  });
});
