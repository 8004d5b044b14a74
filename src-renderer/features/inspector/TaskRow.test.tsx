import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { Task } from '../../../src-shared/a2a';
import { TaskRow } from './TaskRow';

// A task whose trace lines could not all be written says so on its row in the inspector: the core
// puts the note in its final status message's metadata (`record`), the row shows it with a ⚠.

const NOTE =
  "its trace record is incomplete: 2 line(s) of this session could not be written (the session's trace.jsonl)";

function task(metadata?: Record<string, unknown>): Task {
  return {
    id: 'tsk_1',
    contextId: 'ctx_1',
    status: {
      state: 'TASK_STATE_COMPLETED',
      message: {
        messageId: 'm2',
        role: 'ROLE_AGENT',
        parts: [{ text: metadata ? `task completed; ${NOTE}` : 'task completed' }],
        ...(metadata ? { metadata } : {}),
      },
    },
    history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Plan a picnic' }] }],
  };
}

it('shows a ⚠ with the note when the record is incomplete', () => {
  const html = renderToStaticMarkup(
    <TaskRow rec={{ capsuleId: 'writer', task: task({ record: NOTE }) }} open={false} />,
  );
  expect(html).toMatch(/<div class="task-record-warning" role="note">⚠ its trace record is incomplete: 2 line\(s\)/);
});

it('shows no warning for a whole record', () => {
  const html = renderToStaticMarkup(<TaskRow rec={{ capsuleId: 'writer', task: task() }} open={false} />);
  expect(html).toContain('Plan a picnic');
  expect(html).not.toContain('task-record-warning');
  expect(html).not.toContain('⚠');
});
