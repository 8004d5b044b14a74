import { FRAMES_EXTENSION_URI } from '../../../src-shared/a2a';
import type { TraceEvent } from '../../../src-shared/trace';

// The frames extension: a SendStreamingMessage caller that sends `A2A-Extensions:
// <FRAMES_EXTENSION_URI>` also gets the door's text and tool frames, read from the task's own
// trace events, each as a statusUpdate whose metadata carries the frame under the URI.

/** One text or tool frame, as carried in `statusUpdate.metadata[FRAMES_EXTENSION_URI]`. */
export type Frame =
  | { kind: 'text'; turn: number; text: string; tokens_in?: number; tokens_out?: number; stop_reason?: string }
  /** Streamed model output as it arrives (provider drivers); the turn's whole text follows as `text`. */
  | { kind: 'text_delta'; turn: number; text: string }
  | { kind: 'tool_call'; call_id: string; name: string; arguments: unknown }
  | { kind: 'tool_result'; call_id: string; name: string; ok: boolean; result: string };

/** Card entry for the extension. */
export const FRAMES_EXTENSION = {
  uri: FRAMES_EXTENSION_URI,
  description:
    "Adds the door's text and tool frames to a SendStreamingMessage stream as statusUpdate metadata keyed by this URI.",
  required: false,
};

/** True when an A2A-Extensions header value asks for the frames extension. */
export function wantsFrames(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  return values.some((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .includes(FRAMES_EXTENSION_URI),
  );
}

/** The frame a trace event makes, or undefined for events that are not frames. */
export function frameOf(event: TraceEvent): Frame | undefined {
  const e = event as TraceEvent & Record<string, any>;
  switch (e.event_type) {
    case 'frame': {
      const { ts: _ts, event_type: _t, session_id: _s, task_id: _k, ...frame } = e;
      return frame.kind ? (frame as Frame) : undefined;
    }
    case 'inference':
      if (typeof e.text !== 'string' || !e.text) return undefined;
      return {
        kind: 'text',
        turn: e.turn,
        text: e.text,
        tokens_in: e.tokens_in,
        tokens_out: e.tokens_out,
        stop_reason: e.stop_reason,
      };
    case 'tool_call':
      return { kind: 'tool_call', call_id: e.call_id, name: e.name, arguments: e.arguments };
    case 'tool_result':
      return { kind: 'tool_result', call_id: e.call_id, name: e.name, ok: e.ok, result: e.result };
    default:
      return undefined;
  }
}
