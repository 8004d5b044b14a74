import { describe, expect, it } from 'vitest';
import { APPLICABLE, runConformance } from './conformance';

// The MCP conformance suite's applicable server scenarios pass against the gateway's MCP endpoint
// (offline: the suite comes from node_modules, the capsule is a rehearsal).

describe('MCP conformance of the gateway', () => {
  it('passes every applicable server scenario', { timeout: 120_000 }, async () => {
    const results = await runConformance();
    expect(results.map((r) => r.scenario)).toEqual([...APPLICABLE]);
    for (const r of results)
      expect({
        scenario: r.scenario,
        failed: r.failed,
        problems: r.problems.filter((p) => p.status === 'FAILURE'),
      }).toEqual({ scenario: r.scenario, failed: 0, problems: [] });
    // Each ran checks (server-sse-polling reports only warnings: no resumable streams here).
    expect(results.every((r) => r.passed + r.warnings > 0)).toBe(true);
  });
});
