import { z } from 'zod';
import { TASK_STATES } from '../a2a';
import { SESSION_ID_RE } from '../ids';
import { LAST_OUTPUT_CHARS, type LastTaskView } from './last-task';

// What a capsule answered last, as another host (an attached runtime) may say it: checked where
// its capsules enter this Studio (src-main/runtimes), so nothing larger or of another shape reaches
// a page. Apart from last-task.ts so the page's first screen reads that without the schema library.

export const lastTaskView = z.strictObject({
  taskId: z.string().min(1).max(200),
  state: z.enum(TASK_STATES),
  text: z.string().max(LAST_OUTPUT_CHARS),
  sessionId: z.string().regex(SESSION_ID_RE).optional(),
});

/** The last task when it has that shape and stays within bounds, else undefined (the node shows none). */
export function checkedLastTask(v: unknown): LastTaskView | undefined {
  const parsed = lastTaskView.safeParse(v);
  return parsed.success ? parsed.data : undefined;
}
