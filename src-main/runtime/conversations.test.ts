import { describe, expect, it } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import { createConversations } from './conversations';

// Shelved conversations: a plain one points at its task, others are kept as JSON within a bound,
// and one forgotten past the bound comes back from its tasks' questions and answers.

const task = (id: string, question: string, answer?: string): Task => ({
  id,
  contextId: 'c',
  status: { state: 'TASK_STATE_COMPLETED' },
  history: [{ messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: question }] }],
  ...(answer === undefined
    ? {}
    : { artifacts: [{ artifactId: 'response', name: 'response', parts: [{ text: answer }] }] }),
});

describe('conversations', () => {
  it('keeps the newest shelved conversations and rebuilds a forgotten one from its tasks', () => {
    const tasks = new Map<string, Task>([
      ['t1', task('t1', 'first question', 'first answer')],
      ['t2', task('t2', 'second question')],
    ]);
    const byContext: Record<string, string[]> = { a: ['t1', 't2'], b: [], c: [] };
    const convs = createConversations(
      { get: (id) => tasks.get(id), finishedOf: (c) => byContext[c] ?? [] },
      { contexts: 2, bytes: 1 << 20 },
    );
    const withTools: ChatMessage[] = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'shell', arguments: {} }] },
      { role: 'user', content: 'second question' },
    ];
    for (const c of ['a', 'b', 'c']) {
      const conv = convs.take(c);
      conv.push(...withTools);
      convs.shelve(c, 'tx', 'second question', undefined);
    }
    // b and c are within the bound: back exactly as shelved.
    expect(convs.take('c')).toEqual(withTools);
    // a was forgotten: its tasks' questions and answers, without the tool call between them.
    expect(convs.take('a')).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ]);
  });

  it('points a plain conversation at its task', () => {
    const tasks = new Map([['t9', task('t9', 'q', 'a')]]);
    const convs = createConversations({ get: (id) => tasks.get(id), finishedOf: () => [] }, { contexts: 0, bytes: 0 });
    convs.take('p').push({ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' });
    convs.shelve('p', 't9', 'q', 'a');
    expect(convs.take('p')).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
  });
});
