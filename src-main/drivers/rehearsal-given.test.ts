import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src-shared/manifest';
import { createRehearsalDriver } from './rehearsal';
import { givenDivergence, givenEntry, GIVEN_TEXT_LIMIT } from './rehearsal-given';
import type { ChatMessage, TurnRequest } from './types';

// A script made from a recording notes where a replay leaves it; a hand-written script never does.

const driver = (rehearsal: unknown) =>
  createRehearsalDriver(
    manifestSchema.parse({
      name: 'r',
      version: '1',
      inference: { driver: { artifact: 'capsule/driver-rehearsal' }, rehearsal },
    }),
  );
function req(taskText: string, turn: number, messages: ChatMessage[], notes: string[]): TurnRequest {
  return {
    messages,
    tools: [],
    turn,
    taskText,
    signal: new AbortController().signal,
    onDivergence: (n) => notes.push(n.reason),
  };
}
const afterTool = (result: string): ChatMessage[] => [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'shell', arguments: {} }] },
  { role: 'tool', toolCallId: 'c1', name: 'shell', content: result },
];

describe('rehearsal divergence', () => {
  const script = {
    recorded_from: 'ses_x',
    replies: [
      { when: '/^go$/', turns: [{ tool_calls: [{ name: 'shell', arguments: {} }] }, { text: 'done', given: ['42'] }] },
    ],
  };

  it('says nothing while the replay repeats the recording', async () => {
    const notes: string[] = [];
    expect((await driver(script).turn(req('go', 2, afterTool('42'), notes))).text).toBe('done');
    expect(notes).toEqual([]);
  });

  it('names a different tool result, a missing task and a turn past the recording, and still answers', async () => {
    const notes: string[] = [];
    const d = driver(script);
    expect((await d.turn(req('go', 2, afterTool('41'), notes))).text).toBe('done');
    await d.turn(req('stop', 1, [{ role: 'user', content: 'stop' }], notes));
    await d.turn(req('go', 3, afterTool('x'), notes));
    expect(notes).toEqual([
      'tool result 1 differs from the recording: got "41", recorded "42"; the recorded turn is replayed as it was',
      'the recording has no task with this text ("stop"); answered with an acknowledgement',
      'the recording of this task has no turn 3; answered with an acknowledgement',
    ]);
  });

  it('is silent for a script not made from a recording', async () => {
    const notes: string[] = [];
    const { recorded_from: _, ...plain } = script;
    await driver(plain).turn(req('go', 2, afterTool('41'), notes));
    await driver(plain).turn(req('other', 1, [], notes));
    expect(notes).toEqual([]);
  });

  it('keeps long results as a digest and compares them by it', () => {
    const long = 'x'.repeat(GIVEN_TEXT_LIMIT + 1);
    expect(givenEntry('short')).toBe('short');
    expect(givenEntry(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(givenDivergence([givenEntry(long)], [long])).toBeUndefined();
    expect(givenDivergence([givenEntry(long)], [`${long}y`])).toMatch(/^tool result 1 differs/);
    expect(givenDivergence(['a'], ['a', 'b'])).toBe('the recording followed 1 tool result(s), this run has 2');
  });
});
