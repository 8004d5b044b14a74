import { describe, expect, it } from 'vitest';
import { shallowCopy } from './shallow-copy';

describe('shallowCopy', () => {
  it('copies what a spread copies, in the same order, and keys added later go last', () => {
    const sym = Symbol('s');
    const source = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }], [sym]: 1 } as Record<
      string | symbol,
      unknown
    >;
    Object.defineProperty(source, 'hidden', { value: 1, enumerable: false });
    const copy = shallowCopy(source);
    expect(copy).not.toBe(source);
    expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys({ ...source }));
    expect(copy.parts).toBe(source.parts);
    copy.contextId = 'ctx';
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...source, contextId: 'ctx' }));
    expect(source.contextId).toBeUndefined();
  });

  it('keeps an own __proto__ key a plain key, as a spread does', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copy = shallowCopy(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"a":1,"__proto__":{"polluted":true}}');
  });
});
