import { useEffect, useMemo, useState } from 'react';
import type { SessionEventsPage, SessionEventView } from '../../../src-shared/contract';
import { delegationsOf, type DelegationState } from '../../../src-shared/trace';
import { crossed, describeError, invoke, useStudio, type EdgeHop } from '../../store';
import { formatTime } from '../../ui/time';
import { shortId } from '../../ui/ShortId';

// The tasks that crossed a selected edge: read from the source capsule's trace (its running
// session, or its newest recorded one), merged with what arrived live since. Each opens in the
// task inspector: the task it became in the target capsule, or the delegating task when the
// target is not a capsule of this formation.

/** Hops listed, newest first. */
const SHOWN = 30;
/** Trace lines read per edge opened: at most MAX_PAGES pages of PAGE delegation-related lines. */
const PAGE = 5000;
const MAX_PAGES = 4;
const TYPES = [
  'tool_call',
  'tool_result',
  'delegation_start',
  'delegation_end',
  'task_end',
  'task_canceled',
  'task_failed',
];
const STATE_LABEL: Record<DelegationState, string> = {
  running: 'in flight',
  answered: 'answered',
  failed: 'failed',
  canceled: 'canceled',
};

async function recordedHops(sourceId: string, edgeId: string): Promise<EdgeHop[]> {
  const s = useStudio.getState();
  const capsule = s.capsules[sourceId];
  const edge = s.edgeViews.find((e) => e.id === edgeId);
  if (!capsule || !edge) return [];
  const sessionId =
    capsule.sessionId ?? (await invoke('sessions.list', { capsule: capsule.name, limit: 1 })).sessions[0]?.id;
  if (!sessionId) return [];
  const events: SessionEventView[] = [];
  let after: number | null = -1;
  for (let pages = 0; after !== null && pages < MAX_PAGES; pages++) {
    const page: SessionEventsPage = await invoke('sessions.events', { sessionId, types: TYPES, limit: PAGE, after });
    events.push(...page.events);
    after = page.next;
  }
  return delegationsOf(events)
    .filter((d) => crossed(s, sourceId, d, edge))
    .map((d) => ({
      taskId: d.taskId,
      callId: d.callId,
      state: d.state,
      ts: d.ts,
      ...(d.childTaskId ? { childTaskId: d.childTaskId } : {}),
      ...(d.text ? { text: d.text } : {}),
    }));
}

export function EdgeTasks({ edgeId, source, target }: { edgeId: string; source: string; target: string }) {
  const live = useStudio((s) => s.edgeFlow[edgeId]?.hops);
  const targetIsCapsule = useStudio((s) => !!s.capsules[target]);
  const [recorded, setRecorded] = useState<EdgeHop[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let on = true;
    recordedHops(source, edgeId).then(
      (h) => on && setRecorded(h),
      (err) => on && (setRecorded([]), setError(describeError(err))),
    );
    return () => void (on = false);
  }, [source, edgeId]);
  const hops = useMemo(() => {
    const all = new Map<string, EdgeHop>();
    for (const h of [...(recorded ?? []), ...(live ?? [])]) {
      const key = `${h.taskId}\0${h.callId}`;
      all.set(key, { ...all.get(key), ...h });
    }
    return [...all.values()].sort((a, b) => (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0)).slice(0, SHOWN);
  }, [recorded, live]);

  const open = (h: EdgeHop) => {
    const s = useStudio.getState();
    if (targetIsCapsule && h.childTaskId) s.openTask(target, h.childTaskId);
    else s.openTask(source, h.taskId);
  };
  return (
    <section className="edge-tasks nowheel" aria-label="Tasks across this edge" onClick={(e) => e.stopPropagation()}>
      <header className="edge-tasks-head">Tasks across this edge</header>
      {recorded === null && !live?.length ? <p className="muted edge-tasks-empty">Reading the trace…</p> : null}
      {error ? <p className="error-text edge-tasks-empty">{error}</p> : null}
      {recorded !== null && hops.length === 0 ? (
        <p className="muted edge-tasks-empty">No task has crossed it yet.</p>
      ) : null}
      {hops.length ? (
        <ul className="edge-tasks-list">
          {hops.map((h) => {
            const id = targetIsCapsule && h.childTaskId ? h.childTaskId : h.taskId;
            return (
              <li key={`${h.taskId}:${h.callId}`} className="edge-task" data-state={h.state} data-testid="edge-task">
                <span className="edge-task-state">{STATE_LABEL[h.state]}</span>
                <button
                  type="button"
                  className="edge-task-open mono"
                  onClick={() => open(h)}
                  aria-label={`Open task ${id} in the inspector`}
                  title={h.text ? `${h.text} (task ${id})` : `Task ${id}`}
                >
                  {shortId(id)}
                </button>
                <span className="edge-task-time muted">{formatTime(h.ts)}</span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
