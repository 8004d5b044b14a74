import { describe, expect, it } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import { compactTask, expandTask } from './compact';

// Finished tasks round-trip through their compact form exactly.

const id = 'tsk_01a229057bdd7000b748ea3a7fdf49d3';
const base = (over: Partial<Task>): Task => ({
  id,
  contextId: 'ctx-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-10-13T09:00:04.512Z' },
  history: [{ messageId: 'm1', contextId: 'ctx-1', taskId: id, role: 'ROLE_USER', parts: [{ text: 'hi “there”' }] }],
  ...over,
});

describe('compact finished tasks', () => {
  it('round-trips the standard completed shape and stays short', () => {
    const t = base({
      status: {
        state: 'TASK_STATE_COMPLETED',
        message: {
          messageId: `msg_${id}_status`,
          contextId: 'ctx-1',
          taskId: id,
          role: 'ROLE_AGENT',
          parts: [{ text: 'task completed', mediaType: 'text/plain' }],
        },
        timestamp: '2026-10-13T09:00:04.512Z',
      },
      artifacts: [
        { artifactId: 'response', name: 'response', parts: [{ text: 'Acknowledged: “hi”', mediaType: 'text/plain' }] },
      ],
    });
    const c = compactTask(t);
    expect(expandTask(c)).toEqual(t);
    expect(c.length).toBeLessThan(JSON.stringify(t).length * 0.6);
  });

  it('round-trips other shapes as they were', () => {
    const residue = [
      {
        artifactId: 'residue',
        name: 'residue',
        parts: [{ data: { kind: 'detached_shell' }, mediaType: 'application/json' }],
      },
    ];
    const odd = { messageId: 'x', role: 'ROLE_AGENT' as const, parts: [{ text: 'custom' }] };
    for (const t of [
      base({ status: { state: 'TASK_STATE_CANCELED' }, artifacts: residue }),
      base({ status: { state: 'TASK_STATE_FAILED', message: odd }, history: undefined }),
      base({ history: [{ messageId: 'o', contextId: 'other', role: 'ROLE_USER', parts: [{ text: 'a' }] }] }),
    ]) {
      expect(expandTask(compactTask(t))).toEqual(t);
    }
  });

  it("leaves a history message's other keys as they were, in their order, an own __proto__ key too", () => {
    const plain = { metadata: { a: 1 }, messageId: 'm2', contextId: 'ctx-1', taskId: id, role: 'ROLE_USER', parts: [] };
    const parsed = JSON.parse(
      `{"messageId":"m3","contextId":"ctx-1","__proto__":{"x":1},"taskId":"${id}","role":"ROLE_USER","parts":[]}`,
    );
    const c = JSON.parse(compactTask(base({ history: [plain, parsed] as Task['history'] })));
    expect(JSON.stringify(c[6])).toBe(
      '[{"metadata":{"a":1},"messageId":"m2","role":"ROLE_USER","parts":[]},' +
        '{"messageId":"m3","__proto__":{"x":1},"role":"ROLE_USER","parts":[]}]',
    );
  });
});
