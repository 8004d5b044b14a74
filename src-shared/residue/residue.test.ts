import { describe, expect, it } from 'vitest';
import { describeResidue, parseResidueList, residueOfTask } from './index';

// The residue shapes of docs/door.md: one data part per item in CancelTask's artifact, a plain list in
// murmur.StopSession's answer.

const shell = {
  kind: 'detached_shell',
  work_id: 'wrk_9f2a1c',
  binary: 'bash',
  command: 'sleep 30',
  started_at_ms: 1757068800123,
} as const;
const delegation = {
  kind: 'delegation',
  delegation_id: 'dlg_7b31de',
  capsule: 'my-worker',
  version: '0.1.0',
  child_session_id: 'ses_019ed1f0',
  child_workdir: '/tmp/x',
} as const;

describe('residue', () => {
  it('reads one item per data part of the residue artifact', () => {
    const task = {
      artifacts: [
        { artifactId: 'response', parts: [{ text: 'hi' }] },
        { artifactId: 'residue', name: 'residue', parts: [{ data: shell }, { data: delegation }] },
      ],
    };
    expect(residueOfTask(task)).toEqual([shell, delegation]);
  });

  it('skips what is not an item and keeps the rest', () => {
    expect(
      parseResidueList([shell, { kind: 'mystery' }, 'text', null, { ...delegation, capsule: 7 }, delegation]),
    ).toEqual([shell, delegation]);
    expect(parseResidueList({ residue: [shell] })).toEqual([]);
    expect(residueOfTask(undefined)).toEqual([]);
    expect(residueOfTask({ artifacts: [{ artifactId: 'residue', parts: [{}] }] })).toEqual([]);
  });

  it('bounds how many items it reads', () => {
    expect(parseResidueList(Array.from({ length: 5000 }, () => shell))).toHaveLength(1000);
  });

  it('says a detached shell is running and a delegation was ended', () => {
    expect(describeResidue(shell)).toEqual({ status: 'running', text: 'sleep 30' });
    expect(describeResidue(delegation)).toEqual({ status: 'ended', text: 'my-worker (ses_019ed1f0)' });
  });
});
