import { describe, expect, it } from 'vitest';
import type { Task } from '../../src-shared/a2a';
import type { ChatMessage } from '../drivers';
import { createConversations, type ConversationTasks } from './conversations';

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

/** Tasks memory holds (`held`), the others answered only by read(), which counts its calls. */
function tasksOf(all: Map<string, Task>, byContext: Record<string, string[]>, held = new Set(all.keys())) {
  const reads: string[] = [];
  const tasks: ConversationTasks = {
    holds: (id) => held.has(id),
    peek: (id) => (held.has(id) ? all.get(id) : undefined),
    read: async (id) => (reads.push(id), all.get(id)),
    finishedOf: (c) => byContext[c] ?? [],
  };
  return { tasks, reads };
}

describe('conversations', () => {
  it('keeps the newest shelved conversations and rebuilds a forgotten one from its tasks', () => {
    const tasks = new Map<string, Task>([
      ['t1', task('t1', 'first question', 'first answer')],
      ['t2', task('t2', 'second question')],
    ]);
    const byContext: Record<string, string[]> = { a: ['t1', 't2'], b: [], c: [] };
    const convs = createConversations(tasksOf(tasks, byContext).tasks, { contexts: 2, bytes: 1 << 20 });
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
    const convs = createConversations(tasksOf(tasks, {}).tasks, { contexts: 0, bytes: 0 });
    convs.take('p').push({ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' });
    convs.shelve('p', 't9', 'q', 'a');
    expect(convs.take('p')).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
  });

  it('rebuilds from tasks memory no longer holds only in prepare, off the thread, and take reads nothing', async () => {
    const all = new Map<string, Task>([
      ['t1', task('t1', 'first question', 'first answer')],
      ['t2', task('t2', 'second question', 'second answer')],
      ['t3', task('t3', 'plain question', 'plain answer')],
    ]);
    // t1 and t3 have left memory; t2 is still held.
    const { tasks, reads } = tasksOf(all, { a: ['t1', 't2'] }, new Set(['t2']));
    const convs = createConversations(tasks, { contexts: 0, bytes: 0 });
    convs.take('a').push({ role: 'user', content: 'x' }, { role: 'assistant', content: '', toolCalls: [] });
    convs.shelve('a', 'tx', 'x', undefined); // past the bound: forgotten at once
    convs.take('p').push({ role: 'user', content: 'plain question' }, { role: 'assistant', content: 'plain answer' });
    convs.shelve('p', 't3', 'plain question', 'plain answer');
    // A new context, or one whose tasks memory holds, needs nothing prepared.
    expect(convs.prepare('new')).toBeUndefined();
    await convs.prepare('a');
    await convs.prepare('p');
    expect(reads).toEqual(['t1', 't2', 't3']);
    expect(convs.take('a')).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: 'second answer' },
    ]);
    expect(convs.take('p')).toEqual([
      { role: 'user', content: 'plain question' },
      { role: 'assistant', content: 'plain answer' },
    ]);
    expect(reads).toHaveLength(3);
  });
});
