import { describe, expect, it } from 'vitest';
import type { ExposureView, GatewayView } from '../../src-shared/contract';
import { exposureOf } from './exposeSlice';
import { useStudio } from './index';

// Which capsule is exposed: one record per gateway, this Studio's own and each attached runtime's.

const gateway: GatewayView = { running: true, host: '127.0.0.1', port: 1, trustProxy: false, loopback: true };
const exposure = (capsuleId: string): ExposureView => ({
  capsuleId,
  tokenId: 'k',
  compat03: false,
  createdAt: 't',
  url: `http://127.0.0.1:1/a2a/capsules/${capsuleId}/`,
  cardUrl: '',
  mcpUrl: '',
  running: true,
});

describe('exposures', () => {
  it('are read from the gateway that exposes the capsule, and a new list replaces only its own gateway', () => {
    const s = useStudio.getState();
    s.setExposures({ gateway, exposures: [exposure('writer')] });
    s.setExposures({ gateway, exposures: [exposure('@host-b/helper')], runtime: 'host-b' });
    expect(exposureOf(useStudio.getState(), 'writer')?.url).toMatch(/writer\/$/);
    expect(exposureOf(useStudio.getState(), '@host-b/helper')).toBeDefined();
    expect(exposureOf(useStudio.getState(), 'helper')).toBeUndefined();

    s.setExposures({ gateway, exposures: [] });
    expect(exposureOf(useStudio.getState(), 'writer')).toBeUndefined();
    expect(exposureOf(useStudio.getState(), '@host-b/helper')).toBeDefined();
  });
});
