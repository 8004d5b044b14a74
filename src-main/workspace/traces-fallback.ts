import { basename, dirname } from 'node:path';
import type { CommandArgs, SessionEventView, SessionItemView } from '../../src-shared/contract';
import type { Session } from '../runtime/api';
import { findTraceFiles, readTraceLines } from '../trace';
import { readTraceSlice } from './trace-tail';

// Answers for when the trace index cannot open: sessions from the first line of each trace.jsonl
// (no counts, no text search beyond the capsule name) and events read from the file.

function firstLine(path: string): Record<string, unknown> | undefined {
  try {
    return readTraceLines(path, 0, 16 * 1024).lines[0]?.event;
  } catch {
    return undefined;
  }
}

type Running = (sessionId: string) => { id: string; session: Session } | undefined;

/** session_start.forked_from as the list shows it. */
function forkedFromOf(v: unknown): SessionItemView['forkedFrom'] {
  if (!v || typeof v !== 'object') return null;
  const f = v as Record<string, unknown>;
  return typeof f.session_id === 'string'
    ? { sessionId: f.session_id, taskId: String(f.task_id ?? ''), turn: Number(f.turn) || 1 }
    : null;
}

export function fallbackSessions(
  recordsRoot: string,
  q: CommandArgs<'sessions.list'>,
  running: Running,
): SessionItemView[] {
  const out: SessionItemView[] = [];
  for (const path of findTraceFiles(recordsRoot)) {
    const start = firstLine(path);
    const id = typeof start?.session_id === 'string' ? start.session_id : basename(dirname(path));
    const live = running(id);
    const capsule = typeof start?.capsule === 'string' ? start.capsule : null;
    const startedAt = typeof start?.ts === 'string' ? Date.parse(start.ts) || null : null;
    const item: SessionItemView = {
      id,
      capsule,
      ...(live ? { capsuleId: live.id } : {}),
      status: live ? 'running' : 'ended',
      startedAt,
      endedAt: null,
      endReason: null,
      driver: typeof start?.driver === 'string' ? start.driver : null,
      model: typeof start?.model === 'string' ? start.model : null,
      parentId: typeof start?.parent_session_id === 'string' ? start.parent_session_id : null,
      forkedFrom: forkedFromOf(start?.forked_from),
      tasks: 0,
      tokensIn: 0,
      tokensOut: 0,
      events: 0,
    };
    if (q.capsule && capsule !== q.capsule) continue;
    if (q.state && item.status !== q.state) continue;
    if (q.since !== undefined && (startedAt ?? 0) < q.since) continue;
    if (q.until !== undefined && (startedAt ?? 0) > q.until) continue;
    if (q.search && !(capsule ?? '').toLowerCase().includes(q.search.toLowerCase())) continue;
    out.push(item);
  }
  return out.sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, q.limit ?? 500);
}

export async function fallbackEvents(
  recordsRoot: string,
  sessionId: string,
  tracePath: string | undefined,
  after: number,
  limit: number,
) {
  const slice = await readTraceSlice(recordsRoot, sessionId, tracePath ? dirname(tracePath) : undefined, {
    after: after + 1,
    limit,
  });
  const events = slice.events.map((e, i) => ({ ...e, seq: after + 1 + i }) as SessionEventView);
  return { events, next: events.length === limit ? slice.next - 1 : null, total: null };
}
