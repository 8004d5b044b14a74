import { describe, expect, it } from 'vitest';
import { fillArguments, scriptedText } from './rehearsal-text';
import type { ChatMessage } from './types';

// Placeholders of a rehearsal script: a scripted answer reports what its tools really returned.

const asked: ChatMessage = {
  role: 'assistant',
  content: '',
  toolCalls: [
    { id: 'c1', name: 'delegate_task', arguments: { to: 'worker-a', text: 'x' } },
    { id: 'c2', name: 'delegate_task', arguments: { to: 'worker-b', text: 'x' } },
  ],
};
const result = (id: string, content: string, isError = false): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  name: 'delegate_task',
  content,
  ...(isError ? { isError } : {}),
});
const turn = { text: 'Done:\n{{tool_results}}', failed_text: 'Nobody could:\n{{tool_results}}' };

describe('rehearsal placeholders', () => {
  it('quotes each tool result of the previous turn under the name it went to', () => {
    const messages = [
      { role: 'user', content: 't' } as ChatMessage,
      asked,
      result('c1', 'sum is 4'),
      result('c2', 'peer_task_failed: broke', true),
    ];
    expect(scriptedText(turn, 't', messages)).toBe(
      'Done:\n- worker-a: sum is 4\n- worker-b failed: peer_task_failed: broke',
    );
  });

  it('uses failed_text when every call failed, and text when the turn had no tool calls', () => {
    const messages = [asked, result('c1', 'refused', true), result('c2', 'refused too', true)];
    expect(scriptedText(turn, 't', messages)).toBe(
      'Nobody could:\n- worker-a failed: refused\n- worker-b failed: refused too',
    );
    expect(scriptedText({ text: 'Hi {{task}}' }, 'there', [{ role: 'user', content: 'there' }])).toBe('Hi there');
    expect(scriptedText({ text: '{{tool_results}}' }, 't', [])).toBe('(no tool was called)');
  });

  it('uses partial_text when some calls failed and others answered, and text when all answered', () => {
    const some = { ...turn, partial_text: 'Only some could:\n{{tool_results}}' };
    const mixed = [asked, result('c1', 'sum is 4'), result('c2', 'refused', true)];
    expect(scriptedText(some, 't', mixed)).toBe('Only some could:\n- worker-a: sum is 4\n- worker-b failed: refused');
    const all = [asked, result('c1', 'sum is 4'), result('c2', 'sum is 5')];
    expect(scriptedText(some, 't', all)).toBe('Done:\n- worker-a: sum is 4\n- worker-b: sum is 5');
    const none = [asked, result('c1', 'refused', true), result('c2', 'refused too', true)];
    expect(scriptedText(some, 't', none)).toMatch(/^Nobody could:/);
  });

  it('fills {{task}} in string arguments only', () => {
    expect(fillArguments({ to: '*', text: 'do {{task}}', n: 1 }, 'it')).toEqual({ to: '*', text: 'do it', n: 1 });
  });
});
