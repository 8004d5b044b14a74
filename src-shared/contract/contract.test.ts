import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Task } from '../a2a';
import {
  COMMAND_NAMES,
  commands,
  CoreError,
  EVENT_NAMES,
  isCommandName,
  toErrorInfo,
  unwrapReply,
  type CommandOutput,
  type FormationView,
} from './index';

describe('the contract', () => {
  it('names commands domain.verb and events noun.pastTense, each with a doc line', () => {
    for (const name of COMMAND_NAMES) {
      expect(name).toMatch(/^[a-z]+\.[a-z][A-Za-z]*$/);
      expect(commands[name].doc.length).toBeGreaterThan(10);
    }
    for (const name of EVENT_NAMES) expect(name).toMatch(/^[a-z]+\.[a-z]+(ed|Changed|Appended|Raised)$/);
  });

  it('rejects malformed inputs and unknown keys', () => {
    expect(commands['workspace.open'].input.safeParse({ dir: '' }).success).toBe(false);
    expect(commands['capsule.move'].input.safeParse({ id: 'a', position: { x: Infinity, y: 0 } }).success).toBe(false);
    expect(commands['edge.connect'].input.safeParse({ source: 'a', target: 'b', sneaky: true }).success).toBe(false);
    expect(commands['shell.openExternal'].input.safeParse({ url: 'javascript:alert(1)' }).success).toBe(false);
    expect(commands['formation.get'].input.safeParse(undefined).success).toBe(true);
    expect(isCommandName('constructor')).toBe(false);
    expect(isCommandName('task.send')).toBe(true);
  });

  it('carries output types and turns error envelopes into CoreError', () => {
    expectTypeOf<CommandOutput<'formation.get'>>().toEqualTypeOf<FormationView>();
    expectTypeOf<CommandOutput<'task.send'>>().toEqualTypeOf<Task>();
    expect(unwrapReply({ ok: true, value: 3 })).toBe(3);
    const err = (() => {
      try {
        unwrapReply({ ok: false, error: { code: 'conflict', message: 'changed on disk', details: { hash: 'abc' } } });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CoreError);
    expect(err).toMatchObject({ code: 'conflict', message: 'changed on disk', details: { hash: 'abc' } });
    expect(toErrorInfo(new Error('boom'))).toEqual({ code: 'internal', message: 'boom' });
  });
});
