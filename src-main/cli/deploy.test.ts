import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createExposureStore } from '../gateway';
import { UserError } from './errors';
import { main } from './deploy';

// `capsule deploy kubernetes` on the example formation: the exposures of the gateway data folder
// decide whether the gateway is deployed; option mistakes are usage errors.

const EXAMPLE = resolve(__dirname, '../../resources/example-workspace');

async function deploy(...args: string[]): Promise<{ code: number; stdout: string }> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => (out.push(String(chunk)), true));
  try {
    return { code: await main(args), stdout: out.join('') };
  } catch (err) {
    if (err instanceof UserError) return { code: err.exitCode, stdout: (err as Error).message };
    throw err;
  } finally {
    spy.mockRestore();
  }
}

describe('capsule deploy kubernetes', () => {
  it('writes the formation with the gateway for the capsules exposed in the data folder', async () => {
    const data = mkdtempSync(join(tmpdir(), 'capsule-gw-'));
    const store = createExposureStore(data);
    const { token } = store.enable('researcher');
    store.dispose();
    const out = join(mkdtempSync(join(tmpdir(), 'capsule-k8s-')), 'k');
    const r = await deploy('kubernetes', '--workspace', EXAMPLE, '--out', out, '--data', data, '--namespace', 'demo');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('create secret generic capsule-gateway-exposures');
    expect(r.stdout).toContain(`apply with: kubectl apply -k ${out}`);
    const gateway = readFileSync(join(out, 'deployment-capsule-gateway.yaml'), 'utf8');
    expect(gateway).toContain('researcher=http://researcher.demo.svc.cluster.local:47311');
    expect(readFileSync(join(out, 'networkpolicy-researcher-ingress.yaml'), 'utf8')).toContain('capsule-gateway');
    for (const f of [
      'kustomization.yaml',
      '00-namespace-demo.yaml',
      'deployment-coordinator.yaml',
      'service-writer.yaml',
    ])
      expect(existsSync(join(out, f))).toBe(true);
    expect(gateway).not.toContain(token);
  });

  it('refuses a bad --secret, an unknown target and a host that is no DNS name', async () => {
    expect((await deploy('kubernetes', '--workspace', EXAMPLE, '--secret', 'KEY=no-slash')).code).toBe(2);
    expect((await deploy('helm', '--workspace', EXAMPLE)).code).toBe(2);
    expect((await deploy('kubernetes', '--workspace', EXAMPLE, '--host', 'https://x.example.com')).code).toBe(2);
  });
});
