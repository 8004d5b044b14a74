import type { InFlightWork, ResidueItem, ToolContext } from '../tool-types';

// Test support: a tool context for one task, with what the task loop does on cancel (abort, then
// cancel every tracked work for its residue).

export function fakeTask(ids: { sessionId?: string; taskId?: string; contextId?: string } = {}) {
  const controller = new AbortController();
  const works = new Set<InFlightWork>();
  const events: Record<string, unknown>[] = [];
  const ctx: ToolContext = {
    sessionId: ids.sessionId ?? 'ses_test',
    taskId: ids.taskId ?? 'tsk_test',
    contextId: ids.contextId ?? 'ctx_test',
    signal: controller.signal,
    trace: (e) => void events.push(e),
    track: (w) => {
      works.add(w);
      return () => void works.delete(w);
    },
  };
  const cancel = async (): Promise<(ResidueItem | undefined)[]> => {
    controller.abort();
    const list = [...works];
    works.clear();
    return Promise.all(list.map((w) => w.cancel()));
  };
  return { ctx, works, events, cancel };
}
