import { describe, expect, it } from 'vitest';
import { CONTRACT_POLICY } from './calls';
import {
  base64Bytes,
  MAX_DATA_CHARS,
  MAX_FILE_BYTES,
  MAX_SEND_WAIT_MS,
  taskCheckDataInput,
  taskSendInput,
} from './task-send';

// The task.send boundary on its own: what passes, and the sentence each refusal carries.

const b64 = (n: number) => btoa('x'.repeat(n));
const issues = (input: unknown) => {
  const r = taskSendInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('task.send input', () => {
  it('takes text, a reply, data and files within the bounds', () => {
    expect(issues({ capsuleId: 'w', text: 'hi' })).toEqual([]);
    expect(issues({ capsuleId: 'w', text: 'green', taskId: 'tsk_1', contextId: 'ctx_1' })).toEqual([]);
    expect(issues({ capsuleId: 'w', data: 0 })).toEqual([]); // a falsy JSON value is still a data part
    expect(issues({ capsuleId: 'w', data: null })).toEqual([]);
    expect(issues({ capsuleId: 'w', files: [{ name: 'a', bytes: b64(MAX_FILE_BYTES) }] })).toEqual([]);
  });

  it('refuses what a door would refuse, naming the part', () => {
    expect(issues({ capsuleId: 'w' })).toEqual(['text: a message needs text, a data part or a file']);
    expect(issues({ capsuleId: 'w', text: 'x', contextId: '' })[0]).toMatch(/^contextId:/);
    expect(issues({ capsuleId: 'w', text: 'x', taskId: 'x'.repeat(257) })[0]).toMatch(/^taskId:/);
    expect(issues({ capsuleId: 'w', files: [{ name: 'a', bytes: 'abc' }] })).toEqual([
      'files.0.bytes: not base64 (standard alphabet, padded)',
    ]);
    expect(issues({ capsuleId: 'w', files: [{ name: '', bytes: 'AAAA' }] })[0]).toMatch(/^files\.0\.name:/);
    expect(
      issues({ capsuleId: 'w', files: Array.from({ length: 9 }, (_, i) => ({ name: `f${i}`, bytes: 'AAAA' })) }),
    ).toEqual(['files: at most 8 files in one message']);
    expect(
      issues({
        capsuleId: 'w',
        files: [
          { name: 'a', bytes: b64(MAX_FILE_BYTES / 2 + 3) },
          { name: 'b', bytes: b64(MAX_FILE_BYTES / 2) },
        ],
      }),
    ).toEqual(['files: the files add up to 700 KiB; at most 700 KiB in one message']);
    expect(issues({ capsuleId: 'w', data: 'y'.repeat(MAX_DATA_CHARS) })).toEqual([
      'data: the data part is 256 KiB of JSON; at most 256 KiB',
    ]);
    expect(
      issues({
        capsuleId: 'w',
        text: 'é'.repeat(199_000),
        data: 'y'.repeat(MAX_DATA_CHARS - 10),
        files: [{ name: 'a', bytes: b64(500 * 1024) }],
      }),
    ).toEqual([': the message is 1311 KiB as sent; a door takes at most 1 MiB per request, so keep it under 960 KiB']);
  });

  it('bounds a blocking wait below the contract client’s own timeout, so the answer always arrives', () => {
    // The doc's promise: at most (and by default) MAX_SEND_WAIT_MS, then the task as it is. A
    // longer wait would be cut by the client's timeout with "it may or may not have run".
    expect(MAX_SEND_WAIT_MS).toBeLessThan(CONTRACT_POLICY.timeoutMs);
    expect(issues({ capsuleId: 'w', text: 'x', timeoutMs: 0 })).toEqual([]);
    expect(issues({ capsuleId: 'w', text: 'x', timeoutMs: MAX_SEND_WAIT_MS })).toEqual([]);
    expect(issues({ capsuleId: 'w', text: 'x', timeoutMs: MAX_SEND_WAIT_MS + 1 })[0]).toMatch(/^timeoutMs:/);
    expect(issues({ capsuleId: 'w', text: 'x', timeoutMs: -1 })[0]).toMatch(/^timeoutMs:/);
  });

  it('counts base64 as the bytes it decodes to', () => {
    expect([b64(0), b64(1), b64(2), b64(3)].map(base64Bytes)).toEqual([0, 1, 2, 3]);
  });

  it('checkData needs a JSON value of bounded size', () => {
    expect(taskCheckDataInput.safeParse({ capsuleId: 'w', data: { a: 1 } }).success).toBe(true);
    expect(taskCheckDataInput.safeParse({ capsuleId: 'w' }).success).toBe(false);
    expect(taskCheckDataInput.safeParse({ capsuleId: 'w', data: 'y'.repeat(MAX_DATA_CHARS) }).success).toBe(false);
  });
});
