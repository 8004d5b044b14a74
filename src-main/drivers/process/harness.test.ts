import { describe, expect, it } from 'vitest';
import { harnessSchema } from '../../../src-shared/manifest';
import { harnessArgs } from './harness';

describe('harnessArgs', () => {
  it('fills {prompt}, appends resume_args with {session}, and appends the prompt when no arg names it', () => {
    const slot = harnessSchema.parse({
      command: 'agent',
      args: ['-p', '{prompt}'],
      prompt: 'arg',
      resume_args: ['--resume', '{session}'],
    });
    expect(harnessArgs(slot, 'do it')).toEqual(['-p', 'do it']);
    expect(harnessArgs(slot, 'do it', 'abc')).toEqual(['-p', 'do it', '--resume', 'abc']);
    const tail = harnessSchema.parse({
      command: 'agent',
      args: ['--quiet'],
      prompt: 'arg',
      resume_args: ['--session={session}'],
    });
    expect(harnessArgs(tail, 'do it', 'abc')).toEqual(['--quiet', '--session=abc', 'do it']);
    const stdin = harnessSchema.parse({ command: 'agent', args: ['{prompt}'] });
    expect(harnessArgs(stdin, 'do it')).toEqual(['{prompt}']);
    expect(harnessArgs(stdin, 'do it', 'abc')).toEqual(['{prompt}']);
  });
});
